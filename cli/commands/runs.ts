import { createInterface } from "node:readline/promises";
import { Command } from "commander";
import type { Store } from "../../lib/store";
import type { RunFilter } from "../../lib/store/runs";
import { deleteRun, refuseDelete } from "../../lib/runs/remove";
import { withDatabase } from "../database";
import { action, fail } from "../errors";
import { describeWait } from "../../lib/colbench/failure";
import { RUN_STATE_MEANING, RUN_STATES, stateOfSummary } from "../../lib/runs/run-state";

async function runOf(store: Store, nameOrId: string) {
  const run = await store.runs.find(nameOrId);
  if (!run) fail(`no run named "${nameOrId}" (see \`colbench runs --all --archived\`)`);
  return run;
}

async function confirmed(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

export function register(program: Command): void {
  const runs = program
    .command("runs")
    .description("list, archive, restore and delete runs (played sessions and archived runs only when asked)");

  runs
    .command("list", { isDefault: true })
    .description(
      `list benchmark runs with their state (${RUN_STATES.map((w) => `${w}: ${RUN_STATE_MEANING[w]}`).join("; ")}) and progress`,
    )
    .option("--all", "played sessions too")
    .option("--played", "played sessions only")
    .option("--archived", "archived runs too")
    .option("--json", "one JSON object per run")
    .action(
      action(async (opts: { all?: boolean; played?: boolean; archived?: boolean; json?: boolean }) => {
        const filter: RunFilter = {
          kind: opts.played ? "played" : undefined,
          includePlayed: opts.all,
          includeArchived: opts.archived,
        };
        await withDatabase("runs", async (store) => {
          const list = (await store.runs.list(filter)).reverse();
          for (const run of list) {
            const row = {
              id: run.id,
              name: run.name,
              benchmark: run.benchmark,
              kind: run.kind,
              // The state word the run page says too (lib/runs/run-state.ts), not the status column.
              state: stateOfSummary(run),
              archived: run.archivedAt !== null,
              total: run.total,
              done: run.done,
              failed: run.failed,
              waiting: run.waiting,
            };
            const waiting = run.waiting ? `  ${run.waiting.episodes} ${describeWait(run.waiting.wait)}` : "";
            const marks = [run.kind === "played" ? "played" : "", run.archivedAt ? "archived" : ""]
              .filter(Boolean)
              .join(", ");
            console.log(
              opts.json
                ? JSON.stringify(row)
                : `${String(run.id).padStart(5)}  ${run.name.padEnd(40)}  ${run.benchmark.padEnd(8)}  ${row.state.padEnd(8)}  ${run.done}/${run.total} done, ${run.failed} failed, ${run.playing} playing${marks ? `  (${marks})` : ""}${waiting}`,
            );
          }
          if (!list.length && !opts.json) console.log("no runs yet: start one with `colbench run --help`");
        });
      }),
    );

  for (const [name, archived] of [
    ["archive", true],
    ["restore", false],
  ] as const) {
    runs
      .command(name)
      .description(
        archived
          ? "hide a run from every list and ranking (its data stays; `runs restore` brings it back)"
          : "bring an archived run back",
      )
      .argument("<run>", "the run's name or id")
      .action(
        action(async (nameOrId: string) => {
          await withDatabase(`runs ${name}`, async (store) => {
            const run = await runOf(store, nameOrId);
            await store.runs.setArchived(run.id, archived);
            console.log(JSON.stringify({ run: run.name, archived }));
          });
        }),
      );
  }

  runs
    .command("delete")
    .description("delete a run: its episodes, turns, candidates, pairs, labels and the renders only it used")
    .argument("<run>", "the run's name or id")
    .option("--yes", "do not ask for confirmation (needed when not on a terminal)")
    .action(
      action(async (nameOrId: string, opts: { yes?: boolean }) => {
        await withDatabase("runs delete", async (store) => {
          const run = await runOf(store, nameOrId);
          const refusal = await refuseDelete(store, run.id);
          if (refusal) fail(`cannot delete ${run.name}: ${refusal}`);
          if (!opts.yes) {
            if (!process.stdin.isTTY) fail(`deleting ${run.name} cannot be undone: add --yes to confirm`);
            const counts = await store.runs.counts(run.id);
            if (!(await confirmed(`Delete ${run.name} and its ${counts.total} episodes? This cannot be undone.`)))
              fail("nothing deleted");
          }
          const deleted = await deleteRun(store, run.id);
          console.log(
            JSON.stringify({
              run: run.name,
              deleted: true,
              episodes: deleted?.episodes ?? 0,
              turns: deleted?.turns ?? 0,
              renderFiles: deleted?.renderFiles ?? 0,
            }),
          );
        });
      }),
    );
}
