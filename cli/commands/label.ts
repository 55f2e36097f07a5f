import fs from "node:fs";
import { Command, Option } from "commander";
import { createQueue, type QueueSource } from "../../lib/label/build";
import { agreementReport } from "../../lib/label/report";
import { humanTrainingLines, rawLabelLine } from "../../lib/label/exports";
import { humanRatings } from "../../lib/label/leaderboard";
import { TRAINING_FORMATS, type TrainingFormat } from "../../lib/sweet/pipeline";
import type { Store } from "../../lib/store";
import { withDatabase } from "../database";
import { action, fail } from "../errors";

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
    .option("--limit <n>", "keep this many pairs", (v) => Number(v))
    .option("--seed <s>", "order and sides of the pairs", (v) => Number(v), 42)
    .action(
      action(
        async (
          name: string,
          opts: {
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
            limit?: number;
            seed: number;
          },
        ) => {
          const sources = [opts.pairs, opts.candidates, opts.runs].filter(Boolean);
          if (sources.length !== 1)
            fail("say where the pairs come from: one of --pairs RUN, --candidates RUN, --runs A,B");
          let source: QueueSource;
          if (opts.pairs) source = { from: "pairs", run: opts.pairs, kind: opts.kind };
          else if (opts.candidates)
            source = { from: "candidates", run: opts.candidates, pool: opts.includeOwn ? "samples+own" : "samples" };
          else {
            const [a, b, ...rest] = list(opts.runs!);
            if (!a || !b || rest.length) fail(`--runs: two run names separated by a comma (got "${opts.runs}")`);
            source = { from: "runs", a, b };
          }
          let instructions = "";
          if (opts.instructions) {
            try {
              instructions = fs.readFileSync(opts.instructions, "utf8");
            } catch (error) {
              fail(`--instructions: cannot read ${opts.instructions}: ${(error as Error).message}`);
            }
          }
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
              limit: opts.limit,
              seed: opts.seed,
            }),
          );
          console.log(JSON.stringify(created));
        },
      ),
    );
  queues
    .command("list")
    .description("queues with their progress")
    .option("--json", "one JSON object per queue")
    .action(
      action(async (opts: { json?: boolean }) => {
        await withDatabase("queues list", async (store) => {
          const rows = await store.queues.list();
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
              members: q.members.map((m) => m.name),
            };
            console.log(
              opts.json
                ? JSON.stringify(row)
                : `${String(q.id).padStart(4)}  ${q.name.padEnd(28)}  ${q.kind.padEnd(10)}  ${q.items} pairs × ${q.overlap}  ${q.given}/${q.wanted} labelled  members: ${row.members.join(", ") || "none"}`,
            );
          }
          if (!rows.length && !opts.json) console.log("no queues yet: make one with `colbench queues create --help`");
        });
      }),
    );
  queues
    .command("members")
    .description("let more people label a queue")
    .argument("<queue>")
    .argument("<names>", "comma-separated user names")
    .action(
      action(async (nameOrId: string, names: string) => {
        await withDatabase("queues members", async (store) => {
          const queue = await queueOf(store, nameOrId);
          const users = await store.users.list();
          const ids = list(names).map((n) => users.find((u) => u.name === n)?.id ?? fail(`no user named "${n}"`));
          console.log(JSON.stringify({ queue: queue.name, added: await store.queues.addMembers(queue.id, ids) }));
        });
      }),
    );

  const labels = program
    .command("labels")
    .description("what people labelled: exports, agreement, the human-preference ratings");
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
    .option("--out <file>", "write here instead of standard output")
    .action(
      action(
        async (
          nameOrId: string,
          opts: { format: "raw" | TrainingFormat; template?: string; withPrompt?: boolean; out?: string },
        ) => {
          const summary = await withDatabase("labels export", async (store) => {
            const queue = await queueOf(store, nameOrId);
            if (opts.format === "raw") {
              const rows = await store.labels.ofQueue(queue.id);
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
            });
            write(opts.out, lines);
            return { queue: queue.name, format: opts.format, ...summary };
          });
          // The summary goes where it does not mix with the lines.
          (opts.out ? process.stdout : process.stderr).write(JSON.stringify(summary) + "\n");
        },
      ),
    );
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
    .command("ratings")
    .description("Bradley-Terry ratings of runs from labels on pairs that compare two runs, with bootstrap intervals")
    .action(
      action(async () => {
        const ratings = await withDatabase("labels ratings", (store) => humanRatings(store));
        for (const r of ratings) console.log(JSON.stringify(r));
      }),
    );
}
