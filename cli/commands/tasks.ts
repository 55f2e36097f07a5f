import { Command, Option } from "commander";
import { BENCHMARKS, type Benchmark } from "../../lib/benchmarks";
import { withDatabase } from "../database";
import { action } from "../errors";

function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

export function register(program: Command): void {
  const tasks = program.command("tasks").description("look at the tasks in the studio database");
  tasks
    .command("list")
    .description("list tasks, newest import last")
    .addOption(new Option("--benchmark <kind>", "only this benchmark").choices(BENCHMARKS))
    .option("--split <split>", "only this split (test, train, sample)")
    .option("-q, --query <words>", "words that must occur in the description")
    .option("--page <n>", "page number", (v) => Number.parseInt(v, 10), 1)
    .option("--page-size <n>", "tasks per page", (v) => Number.parseInt(v, 10), 20)
    .option("--json", "print one JSON object per task instead of a table")
    .action(
      action(
        async (opts: {
          benchmark?: Benchmark;
          split?: string;
          query?: string;
          page: number;
          pageSize: number;
          json?: boolean;
        }) => {
          const page = await withDatabase("tasks list", (store) =>
            store.tasks.list({
              benchmark: opts.benchmark,
              split: opts.split,
              q: opts.query,
              page: opts.page,
              pageSize: opts.pageSize,
            }),
          );
          if (opts.json) {
            for (const task of page.items) console.log(JSON.stringify(task));
            return;
          }
          const width = Math.max(40, (process.stdout.columns ?? 120) - 36);
          console.log(
            `${"id".padStart(6)}  ${"benchmark".padEnd(9)}  ${"split".padEnd(6)}  ${"tests".padStart(5)}  description`,
          );
          for (const task of page.items) {
            console.log(
              `${String(task.id).padStart(6)}  ${task.benchmark.padEnd(9)}  ${task.split.padEnd(6)}  ${String(task.testCount ?? "-").padStart(5)}  ${oneLine(task.problemDescription, width)}`,
            );
          }
          console.log(`page ${page.page} of ${page.pages} (${page.total} tasks)`);
        },
      ),
    );
}
