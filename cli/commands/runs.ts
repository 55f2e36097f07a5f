import fs from "node:fs";
import { createInterface } from "node:readline/promises";
import { Command } from "commander";
import type { Store } from "../../lib/store";
import type { RunFilter } from "../../lib/store/runs";
import { deleteRun, refuseDelete } from "../../lib/runs/remove";
import { withDatabase } from "../database";
import { action, fail } from "../errors";
import { describeWait } from "../../lib/colbench/failure";
import { RUN_STATE_MEANING, RUN_STATES, stateOfSummary } from "../../lib/runs/run-state";
import { checkRunTag } from "../../lib/store/run-notes";

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
    .description(
      "list, rename, note, tag, archive, restore and delete runs (played sessions and archived runs only when asked)",
    );

  runs
    .command("list", { isDefault: true })
    .description(
      `list benchmark runs with their state (${RUN_STATES.map((w) => `${w}: ${RUN_STATE_MEANING[w]}`).join("; ")}) and progress`,
    )
    .option("--all", "played sessions too")
    .option("--played", "played sessions only")
    .option("--archived", "archived runs too")
    .option("--tag <tag>", "runs carrying this tag only")
    .option("--json", "one JSON object per run")
    .action(
      action(async (opts: { all?: boolean; played?: boolean; archived?: boolean; tag?: string; json?: boolean }) => {
        const filter: RunFilter = {
          kind: opts.played ? "played" : undefined,
          includePlayed: opts.all,
          includeArchived: opts.archived,
          tag: opts.tag === undefined ? undefined : checkRunTag(opts.tag),
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
              tags: run.tags,
              notes: run.notes,
              total: run.total,
              done: run.done,
              failed: run.failed,
              waiting: run.waiting,
            };
            const waiting = run.waiting ? `  ${run.waiting.episodes} ${describeWait(run.waiting.wait)}` : "";
            const marks = [
              run.kind === "played" ? "played" : "",
              run.archivedAt ? "archived" : "",
              ...run.tags.map((t) => `#${t}`),
            ]
              .filter(Boolean)
              .join(", ");
            console.log(
              opts.json
                ? JSON.stringify(row)
                : `${String(run.id).padStart(5)}  ${run.name.padEnd(40)}  ${run.benchmark.padEnd(8)}  ${row.state.padEnd(8)}  ${run.done}/${run.total} done, ${run.failed} failed, ${run.playing} playing${marks ? `  (${marks})` : ""}${waiting}`,
            );
          }
          if (!list.length && !opts.json)
            console.log(
              filter.tag
                ? `no run is tagged "${filter.tag}" (add --all --archived to look among every run)`
                : "no runs yet: start one with `colbench run --help`",
            );
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

  registerEdits(runs);

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

/** `runs rename`, `runs note` and `runs tag`: what a researcher writes on a run (rules: lib/store/run-notes.ts). */
function registerEdits(runs: Command): void {
  runs
    .command("rename")
    .description("give a run another name (unique; letters, digits, spaces and . _ - : + @ ( ) #)")
    .argument("<run>", "the run's name or id")
    .argument("<name>", "the new name")
    .action(
      action(async (nameOrId: string, name: string) => {
        await withDatabase("runs rename", async (store) => {
          const run = await runOf(store, nameOrId);
          const renamed = await store.runs.rename(run.id, name);
          console.log(JSON.stringify({ run: run.id, from: run.name, name: renamed.name }));
        });
      }),
    );

  runs
    .command("note")
    .description("set a run's notes (replacing them), from the argument or --file; --clear empties them")
    .argument("<run>", "the run's name or id")
    .argument("[text...]", "the notes (words are joined by spaces)")
    .option("--file <path>", "read the notes from a file (- for stdin)")
    .option("--clear", "remove the notes")
    .action(
      action(async (nameOrId: string, words: string[], opts: { file?: string; clear?: boolean }) => {
        const given = [words.length > 0, opts.file !== undefined, Boolean(opts.clear)].filter(Boolean).length;
        if (given !== 1) fail("runs note: give the notes as text, or --file PATH, or --clear (exactly one)");
        const text = opts.clear
          ? ""
          : opts.file !== undefined
            ? fs.readFileSync(opts.file === "-" ? 0 : opts.file, "utf8")
            : words.join(" ");
        await withDatabase("runs note", async (store) => {
          const run = await runOf(store, nameOrId);
          const { notes } = await store.runs.setNotes(run.id, text);
          console.log(JSON.stringify({ run: run.name, notes }));
        });
      }),
    );

  runs
    .command("tag")
    .description("add tags to a run (lowercase letters, digits, . _ -), or remove them with --remove")
    .argument("<run>", "the run's name or id")
    .argument("[tags...]", "tags to add")
    .option("--remove <tags...>", "tags to remove")
    .action(
      action(async (nameOrId: string, add: string[], opts: { remove?: string[] }) => {
        if (!add.length && !opts.remove?.length) fail("runs tag: name tags to add, or --remove TAG...");
        await withDatabase("runs tag", async (store) => {
          const run = await runOf(store, nameOrId);
          const { tags } = await store.runs.changeTags(run.id, { add, remove: opts.remove });
          console.log(JSON.stringify({ run: run.name, tags }));
        });
      }),
    );
}
