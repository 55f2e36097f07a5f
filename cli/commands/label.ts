import fs from "node:fs";
import { Command, Option } from "commander";
import { createQueue, type QueueSource } from "../../lib/label/build";
import { agreementReport } from "../../lib/label/report";
import { withoutPaused } from "../../lib/label/gold";
import { reviewBoard } from "../../lib/label/review";
import { addMembers, deleteWithExport, editInstructions, removeMembers, setState } from "../../lib/label/manage";
import { humanTrainingLines, rawLabelLine } from "../../lib/label/exports";
import { humanRatings } from "../../lib/label/leaderboard";
import { TRAINING_FORMATS, type TrainingFormat } from "../../lib/sweet/pipeline";
import type { Store } from "../../lib/store";
import { withDatabase } from "../database";
import { registerQueuePairs } from "./queue-pairs";
import { action, fail } from "../errors";
import { registerQueueQuota } from "./queue-quota";

// Labelling queues and their labels from a terminal: every job of the Annotate pages.

async function queueOf(store: Store, nameOrId: string) {
  const queue = await store.queues.find(nameOrId);
  if (!queue) fail(`no queue named "${nameOrId}" (see \`colbench queues list\`)`);
  return queue;
}

const list = (value: string) =>
  value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

function write(out: string | undefined, lines: Iterable<Record<string, unknown>>): number {
  let n = 0;
  const text: string[] = [];
  for (const line of lines) {
    text.push(JSON.stringify(line));
    n++;
  }
  const body = text.length ? text.join("\n") + "\n" : "";
  if (out) fs.writeFileSync(out, body);
  else process.stdout.write(body);
  return n;
}

export function register(program: Command): void {
  registerQueues(program);
  registerLabels(program);
}

function registerQueues(program: Command): void {
  const queues = program
    .command("queues")
    .description("labelling queues: pairs that people label A / B / tie / both bad");
  queues
    .command("create")
    .description("make a queue from a run's SWEET pairs, its critic-ranked candidates, or two runs on the same tasks")
    .argument("<name>", "the queue's name")
    .option("--pairs <run>", "the run's stored pairs (with --kind trajectory or turn)")
    .addOption(
      new Option("--kind <kind>", "which of the run's pairs").choices(["trajectory", "turn"]).default("trajectory"),
    )
    .option(
      "--candidates <run>",
      "each agent turn's best-ranked candidate against its worst (among its N samples, as turn pairs are drawn)",
    )
    .option(
      "--include-own",
      "with --candidates: count the turn's own output (candidate 0) among them, as turn-pairs --include-own does",
    )
    .option("--runs <a,b>", "run A against run B, task by task")
    .option("--overlap <n>", "labels wanted per pair", (v) => Number(v), 1)
    .option("--members <names>", "who may label it (comma-separated user names)", list, [])
    .option("--instructions <file>", "Markdown shown above every pair")
    .option("--gold <n>", "gold pairs (known answer: rewards at least --gold-gap apart) set aside", (v) => Number(v), 0)
    .option("--gold-rate <r>", "the share of pairs that are gold, while a person has gold left", (v) => Number(v))
    .option("--gold-gap <g>", "the reward gap that makes an answer known", (v) => Number(v), 0.5)
    .option("--shows-hidden", "members see the reference, tests and target page (default: they see what the agent saw)")
    .option(
      "--hide-scores",
      "members see no automatic scores (per-test pass/fail, reward, similarity), so they do not anchor the judgement",
    )
    .option(
      "--gold-threshold <accuracy>",
      "pause a member whose accuracy on gold pairs falls below this (0-1), once they labelled --gold-minimum of them",
      (v) => Number(v),
    )
    .option("--gold-minimum <n>", "gold labels a member gives before --gold-threshold judges them", (v) => Number(v), 3)
    .option("--graded", "A and B come as much or slightly better (exports carry the grade; agreement counts the side)")
    .option(
      "--criteria <names>",
      "named criteria, each judged A / B / tie beside the overall choice (comma-separated)",
      list,
      [],
    )
    .option(
      "--reasons <answers>",
      "answers that need a reason in the comment: any of tie, both_bad, slightly, much (comma-separated)",
      list,
      [],
    )
    .option(
      "--training",
      "training mode: after a gold pair is labelled, the person sees whether they matched its answer and why",
    )
    .option("--limit <n>", "keep this many pairs", (v) => Number(v))
    .option("--quota <n>", "the most pairs one person labels (see `queues quota`)", (v) => Number(v))
    .option("--seed <s>", "order and sides of the pairs", (v) => Number(v), 42)
    .action(action(createQueueStep));
  queues
    .command("list")
    .description("queues with their progress")
    .option("--json", "one JSON object per queue")
    .option("--archived", "archived queues too")
    .action(
      action(async (opts: { json?: boolean; archived?: boolean }) => {
        await withDatabase("queues list", async (store) => {
          const rows = await store.queues.list({ archived: Boolean(opts.archived) });
          for (const q of rows) {
            const row = {
              id: q.id,
              name: q.name,
              kind: q.kind,
              benchmark: q.benchmark,
              items: q.items,
              gold: q.gold,
              overlap: q.overlap,
              given: q.given,
              wanted: q.wanted,
              labels: q.labels,
              shows_hidden: q.showsHidden,
              hides_scores: q.hidesScores,
              training: q.trainingMode,
              quota: q.quota,
              label_schema: q.labelSchema,
              state: q.archivedAt ? "archived" : q.closedAt ? "closed" : "open",
              members: q.members.map((m) => m.name),
            };
            console.log(
              opts.json
                ? JSON.stringify(row)
                : `${String(q.id).padStart(4)}  ${q.name.padEnd(28)}  ${q.kind.padEnd(10)}  ${q.items} pairs × ${q.overlap}  ${q.given}/${q.wanted} labelled  ${row.state === "open" ? "" : `${row.state}  `}members: ${row.members.join(", ") || "none"}`,
            );
          }
          if (!rows.length && !opts.json) console.log("no queues yet: make one with `colbench queues create --help`");
        });
      }),
    );
  queues
    .command("members")
    .description("let more people label a queue (or, with --remove, take them off: their labels stay)")
    .argument("<queue>")
    .argument("<names>", "comma-separated user names")
    .option("--remove", "take them off the queue; the pairs they held go back to the others")
    .action(
      action(async (nameOrId: string, names: string, opts: { remove?: boolean }) => {
        await withDatabase("queues members", async (store) => {
          const queue = await queueOf(store, nameOrId);
          const done = opts.remove
            ? await removeMembers(store, queue, list(names))
            : await addMembers(store, queue, list(names));
          console.log(JSON.stringify(done));
        });
      }),
    );
  registerQueueManagement(queues);
  registerQueuePairs(queues, queueOf, queueSourceOf);
  registerQueueQuota(queues);
}

/** Closing, archiving, opening again, editing instructions and deleting (labels exported first). */
function registerQueueManagement(queues: Command): void {
  for (const [name, state, does] of [
    ["close", "closed", "stop handing out and taking labels; every label is kept"],
    ["archive", "archived", "close a queue and leave it out of the lists; every label is kept"],
    ["reopen", "open", "open a closed or archived queue again"],
  ] as const) {
    queues
      .command(name)
      .description(does)
      .argument("<queue>")
      .action(
        action(async (nameOrId: string) => {
          const done = await withDatabase(`queues ${name}`, async (store) =>
            setState(store, await queueOf(store, nameOrId), state),
          );
          console.log(JSON.stringify(done));
        }),
      );
  }
  queues
    .command("reviewers")
    .description(
      "let people review a queue: accept or reject its labels and decide its split pairs (/annotate/ID/review)",
    )
    .argument("<queue>")
    .argument("<names>", "comma-separated user names")
    .action(
      action(async (nameOrId: string, names: string) => {
        await withDatabase("queues reviewers", async (store) => {
          const queue = await queueOf(store, nameOrId);
          const users = await store.users.list();
          const ids = list(names).map((n) => users.find((u) => u.name === n)?.id ?? fail(`no user named "${n}"`));
          console.log(JSON.stringify({ queue: queue.name, added: await store.labels.addReviewers(queue.id, ids) }));
        });
      }),
    );
  queues
    .command("edit")
    .description("change a queue's instructions (Markdown, shown above every pair)")
    .argument("<queue>")
    .requiredOption("--instructions <file>", "the new instructions")
    .action(
      action(async (nameOrId: string, opts: { instructions: string }) => {
        const text = readInstructions(opts.instructions);
        const done = await withDatabase("queues edit", async (store) =>
          editInstructions(store, await queueOf(store, nameOrId), text),
        );
        console.log(JSON.stringify(done));
      }),
    );
  queues
    .command("delete")
    .description(
      "delete a queue with its pairs and labels, once its labels are written to --export and read back whole",
    )
    .argument("<queue>")
    .requiredOption("--export <file>", "a new file for the queue's labels (raw JSONL, as labels export writes)")
    .action(
      action(async (nameOrId: string, opts: { export: string }) => {
        const done = await withDatabase("queues delete", async (store) =>
          deleteWithExport(store, await queueOf(store, nameOrId), opts.export),
        );
        console.log(JSON.stringify(done));
      }),
    );
}

interface CreateQueueOptions {
  pairs?: string;
  kind: "trajectory" | "turn";
  candidates?: string;
  includeOwn?: boolean;
  runs?: string;
  overlap: number;
  members: string[];
  instructions?: string;
  gold: number;
  goldRate?: number;
  goldGap: number;
  showsHidden?: boolean;
  hideScores?: boolean;
  goldThreshold?: number;
  goldMinimum: number;
  graded?: boolean;
  criteria: string[];
  reasons: string[];
  training?: boolean;
  limit?: number;
  quota?: number;
  seed: number;
}

/** `colbench queues create`: the queue from exactly one source, with its instructions read from their file. */
async function createQueueStep(name: string, opts: CreateQueueOptions): Promise<void> {
  const source = queueSourceOf(opts);
  const instructions = readInstructions(opts.instructions);
  const created = await withDatabase("queues create", (store) =>
    createQueue(store, {
      name,
      source,
      instructions,
      overlap: opts.overlap,
      members: opts.members,
      gold: opts.gold,
      goldRate: opts.goldRate,
      goldGap: opts.goldGap,
      showsHidden: Boolean(opts.showsHidden),
      hidesScores: Boolean(opts.hideScores),
      goldThreshold: opts.goldThreshold,
      goldMinimum: opts.goldMinimum,
      labelSchema: { graded: Boolean(opts.graded), criteria: opts.criteria, reasonsFor: opts.reasons },
      trainingMode: Boolean(opts.training),
      limit: opts.limit,
      quota: opts.quota,
      seed: opts.seed,
    }),
  );
  console.log(JSON.stringify(created));
}

/** Where the pairs come from: one of --pairs RUN, --candidates RUN, --runs A,B. */
function queueSourceOf(
  opts: Pick<CreateQueueOptions, "pairs" | "candidates" | "includeOwn" | "runs" | "kind">,
): QueueSource {
  const sources = [opts.pairs, opts.candidates, opts.runs].filter(Boolean);
  if (sources.length !== 1) fail("say where the pairs come from: one of --pairs RUN, --candidates RUN, --runs A,B");
  if (opts.pairs) return { from: "pairs", run: opts.pairs, kind: opts.kind };
  if (opts.candidates)
    return { from: "candidates", run: opts.candidates, pool: opts.includeOwn ? "samples+own" : "samples" };
  const [a, b, ...rest] = list(opts.runs!);
  if (!a || !b || rest.length) fail(`--runs: two run names separated by a comma (got "${opts.runs}")`);
  return { from: "runs", a, b };
}

function readInstructions(file: string | undefined): string {
  if (!file) return "";
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    fail(`--instructions: cannot read ${file}: ${(error as Error).message}`);
  }
}

function registerLabels(program: Command): void {
  const labels = program
    .command("labels")
    .description("what people labelled: exports, agreement, the human-preference ratings");
  registerLabelExport(labels);
  labels
    .command("agreement")
    .description(
      "a queue's agreement: Cohen's kappa per pair of people, Fleiss' kappa, Krippendorff's alpha, agreement with the rule or critic, gold accuracy, time per label (JSON)",
    )
    .argument("<queue>")
    .action(
      action(async (nameOrId: string) => {
        const report = await withDatabase("labels agreement", async (store) => {
          const queue = await queueOf(store, nameOrId);
          return { queue: queue.name, ...agreementReport(await store.labels.ofQueue(queue.id)) };
        });
        console.log(JSON.stringify(report, null, 2));
      }),
    );
  labels
    .command("review")
    .description("each labelled pair with its labels, reviews and decision (JSONL; split pairs first)")
    .argument("<queue>")
    .addOption(
      new Option("--only <which>", "only split pairs, or those with a label not reviewed").choices([
        "split",
        "unreviewed",
      ]),
    )
    .action(
      action(async (nameOrId: string, opts: { only?: "split" | "unreviewed" }) => {
        await withDatabase("labels review", async (store) => {
          const queue = await queueOf(store, nameOrId);
          for (const item of await reviewBoard(store, queue, { only: opts.only })) console.log(JSON.stringify(item));
        });
      }),
    );
  labels
    .command("flags")
    .description("pairs people skipped with a reason or flagged as broken (JSONL: item, annotator, broken, reason)")
    .argument("<queue>")
    .action(
      action(async (nameOrId: string) => {
        await withDatabase("labels flags", async (store) => {
          const queue = await queueOf(store, nameOrId);
          for (const f of await store.labels.flags(queue.id))
            console.log(JSON.stringify({ item: f.itemId, annotator: f.user, broken: f.broken, reason: f.reason }));
        });
      }),
    );
  labels
    .command("ratings")
    .description("Bradley-Terry ratings of runs from labels on pairs that compare two runs, with bootstrap intervals")
    .action(
      action(async () => {
        const ratings = await withDatabase("labels ratings", (store) => humanRatings(store));
        for (const r of ratings) console.log(JSON.stringify(r));
      }),
    );
}

/** `colbench labels export`: raw labels, or the pairs people decided as training files. */
function registerLabelExport(labels: Command): void {
  labels
    .command("export")
    .description(
      "raw labels (JSONL), or the pairs people decided as training files (ties, both-bad and splits left out and counted)",
    )
    .argument("<queue>")
    .addOption(
      new Option("--format <format>", "raw, or a SWEET-RL training format")
        .choices(["raw", ...TRAINING_FORMATS])
        .default("raw"),
    )
    .option(
      "--template <name>",
      "chat template of the prompts for runs that record none (a hub id, a model folder, llama3 or chatml); a run's recorded template is always used, and another refused",
    )
    .option("--with-prompt", "openrlhf-policy: the prompt apart from chosen and rejected")
    .addOption(
      new Option(
        "--majority <kind>",
        "training formats: the plain majority, or weighted by each person's gold accuracy",
      )
        .choices(["plain", "weighted"])
        .default("plain"),
    )
    .option("--exclude-paused", "leave out the labels of members the queue's gold threshold pauses")
    .option("--out <file>", "write here instead of standard output")
    .action(
      action(
        async (
          nameOrId: string,
          opts: {
            format: "raw" | TrainingFormat;
            template?: string;
            withPrompt?: boolean;
            majority: "plain" | "weighted";
            excludePaused?: boolean;
            out?: string;
          },
        ) => {
          const summary = await withDatabase("labels export", async (store) => {
            const queue = await queueOf(store, nameOrId);
            if (opts.format === "raw") {
              const all = await store.labels.ofQueue(queue.id);
              const rows = opts.excludePaused ? withoutPaused(queue, all) : all;
              return {
                queue: queue.name,
                format: "raw",
                labels: write(
                  opts.out,
                  rows.map((l) => rawLabelLine(queue, l)),
                ),
              };
            }
            const { lines, summary } = await humanTrainingLines(store, queue, opts.format, {
              template: opts.template,
              withPrompt: opts.withPrompt,
              majority: opts.majority,
              excludePaused: opts.excludePaused,
            });
            write(opts.out, lines);
            return { queue: queue.name, format: opts.format, ...summary };
          });
          // The summary goes where it does not mix with the lines.
          (opts.out ? process.stdout : process.stderr).write(JSON.stringify(summary) + "\n");
        },
      ),
    );
}
