import { Command } from "commander";
import { withDatabase } from "../database";
import { action } from "../errors";

export function register(program: Command): void {
  program
    .command("runs")
    .description("list runs with their progress")
    .option("--json", "one JSON object per run")
    .action(
      action(async (opts: { json?: boolean }) => {
        await withDatabase("runs", async (store) => {
          const runs = (await store.runs.list()).reverse();
          for (const run of runs) {
            const counts = await store.runs.counts(run.id);
            const row = { id: run.id, name: run.name, benchmark: run.benchmark, status: run.status, ...counts };
            console.log(
              opts.json
                ? JSON.stringify(row)
                : `${String(run.id).padStart(5)}  ${run.name.padEnd(40)}  ${run.benchmark.padEnd(8)}  ${run.status.padEnd(7)}  ${counts.done}/${counts.total} done, ${counts.failed} failed`,
            );
          }
          if (!runs.length && !opts.json) console.log("no runs yet: start one with `colbench run --help`");
        });
      }),
    );
}
