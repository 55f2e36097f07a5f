import { explainStepError } from "../../lib/sweet/pipeline-view";
import { stepWait, stepWaitLine } from "../../lib/sweet/step-wait";
import { Command, Option } from "commander";
import { SingleBar, Presets } from "cli-progress";
import { parseServerSpec } from "../../lib/colbench/server-spec";
import { OpenAICompatibleClient } from "../../lib/models/openai-client";
import { templateForRun } from "../../lib/sweet/run-template";
import {
  makeTrajectoryPairs,
  makeTurnPairs,
  rankCandidates,
  sampleCandidates,
  type Progress,
  type StateOrder,
} from "../../lib/sweet/pipeline";
import type { Store } from "../../lib/store";
import type { LoadProgress } from "../../lib/gpu/model/layout";
import type { LocalScorer } from "../../lib/gpu/model/scorer";
import type { LocalDevice } from "../../lib/gpu/node/local-scorer";
import type { PromptScorer } from "../../lib/sweet/score-turn";
import { enqueueCandidates, enqueueRank, queueConfigured } from "../../lib/queue/enqueue";
import { JobQueue } from "../../lib/queue/queue";
import type { Database } from "../../lib/db/open";
import { withDatabase } from "../database";
import { action, fail } from "../errors";
import { SWEET_DEFAULTS } from "../../lib/sweet/defaults";
import { describeLineage, loadLineage, modelLineage, PIPELINE_STEPS, recordStep } from "../../lib/sweet/lineage";

// SWEET-RL's steps as commands over a run in the database. Each prints a JSON summary as its last
// line and can be run again: it finishes what a crash left and adds nothing after a success.

const positive = (name: string) => (value: string) => {
  const n = Number.parseInt(value, 10);
  if (!Number.isInteger(n) || n < 1 || String(n) !== value.trim())
    throw new Error(`${name}: expected a positive whole number, got "${value}"`);
  return n;
};

/** `--queue`: the step's jobs go on the run queue (one per state) for `colbench worker --kinds sample,rank`. */
async function onQueue<T>(db: Database, put: (queue: JobQueue) => Promise<T>): Promise<T> {
  if (!queueConfigured(db)) fail("--queue needs the run queue on a PostgreSQL server: set DATABASE_URL");
  const queue = await JobQueue.open(db.url);
  try {
    return await put(queue);
  } finally {
    await queue.close().catch(() => {});
  }
}

async function runOf(store: Store, nameOrId: string) {
  const run = await store.runs.find(nameOrId);
  if (!run) fail(`no run named "${nameOrId}" (see \`colbench runs\`)`);
  return run;
}

/** A progress bar on stderr, quiet when stderr is not a terminal. */
function progressBar(label: string): { update: Progress; stop(): void } {
  const bar = new SingleBar(
    { format: `${label} {bar} {value}/{total}`, stream: process.stderr, hideCursor: true },
    Presets.shades_classic,
  );
  let started = false;
  return {
    update: (done, total) => {
      if (!process.stderr.isTTY) return;
      if (!started) bar.start(total, done);
      started = true;
      bar.update(done);
    },
    stop: () => started && bar.stop(),
  };
}

/** The critic (and policy) from model folders, loading with a bar per model on stderr. */
async function openLocalModels(
  criticDir: string,
  policyDir: string | undefined,
  device: LocalDevice,
): Promise<{ critic: LocalScorer; policy?: LocalScorer }> {
  // Loaded only here: WebGPU (Dawn) stays out of every other command.
  const { openLocalScorer } = await import("../../lib/gpu/node/local-scorer");
  const { openNodeGpu } = await import("../../lib/gpu/node/open");
  const gpu = device === "webgpu" ? await openNodeGpu() : undefined;
  const open = async (dir: string, option: string) => {
    const bar = progressBar(`loading ${option.replace(/^--/, "")}`);
    try {
      return await openLocalScorer(dir, {
        device,
        option,
        gpu,
        onProgress: (p: LoadProgress) => bar.update(Math.round(p.loaded / 1048576), Math.round(p.total / 1048576)),
      });
    } finally {
      bar.stop();
    }
  };
  const critic = await open(criticDir, "--critic-weights");
  return { critic, policy: policyDir ? await open(policyDir, "--policy-weights") : undefined };
}

const templateOption = () =>
  new Option(
    "--template <ref>",
    "the chat template prompts are written in: a hub id or model folder (its tokenizer_config.json chat_template), or a fallback (llama3, chatml); recorded with the run by its first step, which later steps and exports then use (default: the recorded one, else llama3)",
  );

export function register(program: Command): void {
  registerPairs(program);
  registerCandidates(program);
  registerRank(program);
  registerTurnPairs(program);
  registerLineage(program);
}

function registerPairs(program: Command): void {
  program
    .command("pairs")
    .description(
      "SWEET-RL step 1: trajectory preference pairs from a best-of-k run (backend: the best sample that passed against worse ones; frontend: samples 0.1 apart)",
    )
    .argument("<run>", "the run's name or id")
    .option(
      "--with-ground-truth",
      "the critic's training text starts with the task's final answer (training-time information)",
    )
    .action(
      action(async (name: string, opts: { withGroundTruth?: boolean }) => {
        const summary = await withDatabase("pairs", async (store) => {
          const run = await runOf(store, name);
          return {
            run: run.name,
            ...(await makeTrajectoryPairs(store, run.id, { groundTruth: Boolean(opts.withGroundTruth) })),
          };
        });
        console.log(JSON.stringify(summary));
      }),
    );
}

function registerCandidates(program: Command): void {
  program
    .command("candidates")
    .description("SWEET-RL step 2: sample N candidate turns from the policy for every agent turn, with their log-probs")
    .argument("<run>", "the run's name or id")
    .requiredOption(
      "--policy <url#model>",
      "the policy's OpenAI-compatible server (chat with n and logprobs; completions with echo)",
    )
    .option("--n <n>", "candidates per turn (the published sampler's best_of_n)", positive("--n"), SWEET_DEFAULTS.n)
    .option("--fraction <f>", "only the first fraction of the run's episodes", Number.parseFloat, 1)
    .option("--concurrency <n>", "requests in flight", positive("--concurrency"), 64)
    .option("--queue", "with DATABASE_URL: put one job per state on the run queue for `colbench worker`s and exit")
    .addOption(templateOption())
    .action(action(candidatesStep));
}

interface CandidatesOptions {
  policy: string;
  n: number;
  fraction: number;
  concurrency: number;
  template?: string;
  queue?: boolean;
}

/** `colbench candidates`: samples the candidates here from the policy's server, or (--queue) gives workers the jobs. */
async function candidatesStep(name: string, opts: CandidatesOptions): Promise<void> {
  if (!(opts.fraction > 0 && opts.fraction <= 1)) fail(`--fraction: expected a number in (0, 1], got ${opts.fraction}`);
  if (opts.queue) return queueCandidates(name, opts);
  const policy = new OpenAICompatibleClient(parseServerSpec(opts.policy, "--policy"), {
    concurrency: opts.concurrency,
  });
  const unwatch = sayWaits("candidates", policy);
  const bar = progressBar("candidates");
  const summary = await withDatabase("candidates", async (store) => {
    const run = await runOf(store, name);
    try {
      const template = await templateForRun(store, run.id, opts.template);
      return {
        run: run.name,
        template: template.name,
        ...(await sampleCandidates(store, run.id, policy, {
          n: opts.n,
          fraction: opts.fraction,
          template,
          concurrency: opts.concurrency,
          onProgress: bar.update,
          via: "cli",
        })),
      };
    } catch (error) {
      throw new Error(explainStepError("candidates", (error as Error).message));
    } finally {
      unwatch();
      bar.stop();
    }
  });
  console.log(JSON.stringify(summary));
}

/** `colbench candidates --queue`: one sample job per state on the run queue. */
async function queueCandidates(name: string, opts: CandidatesOptions): Promise<void> {
  const policy = parseServerSpec(opts.policy, "--policy");
  const summary = await withDatabase("candidates", async (store, db) => {
    const run = await runOf(store, name);
    const template = await templateForRun(store, run.id, opts.template);
    await recordStep(store, run.id, "candidates", {
      via: "queue",
      policy: modelLineage(policy),
      template: template.recorded.ref,
      n: opts.n,
      fraction: opts.fraction,
      temperature: SWEET_DEFAULTS.temperature,
      maxTokens: SWEET_DEFAULTS.maxTokens,
    });
    return {
      run: run.name,
      template: template.name,
      ...(await onQueue(db, (queue) =>
        enqueueCandidates(store, queue, run.id, {
          policy: opts.policy,
          n: opts.n,
          fraction: opts.fraction,
          template: template.name,
        }),
      )),
    };
  });
  console.log(JSON.stringify(summary));
}

function registerRank(program: Command): void {
  program
    .command("rank")
    .description("SWEET-RL step 3: the critic scores every candidate; advantage = critic score - policy log-prob")
    .argument("<run>", "the run's name or id")
    .option("--critic <url#model>", "the critic's OpenAI-compatible server (completions with echo)")
    .option(
      "--critic-weights <dir>",
      "score with the critic on this machine instead: a Hugging Face model folder (Llama 3.x, Qwen2/2.5, SmolLM2; safetensors)",
    )
    .option(
      "--policy-weights <dir>",
      "with --critic-weights: recompute the policy's log-probs of every candidate with this model folder (else the ones stored when sampling are used)",
    )
    .addOption(
      new Option(
        "--device <device>",
        "where models on this machine run: webgpu (a GPU, else a software adapter) or cpu (tiny models)",
      )
        .choices(["webgpu", "cpu"])
        .default("webgpu"),
    )
    .option("--no-ground-truth", "leave the task's final answer out of the critic's prompt")
    .option("--sum", "sum the log-probs instead of averaging them (the policy's sum is subtracted then)")
    .option("--concurrency <n>", "requests in flight", positive("--concurrency"), 64)
    .option(
      "--queue",
      "with DATABASE_URL and --critic: put one job per state on the run queue for `colbench worker`s and exit",
    )
    .addOption(templateOption())
    .action(action(rankStep));
}

interface RankOptions {
  critic?: string;
  criticWeights?: string;
  policyWeights?: string;
  device: LocalDevice;
  groundTruth: boolean;
  sum?: boolean;
  concurrency: number;
  template?: string;
  queue?: boolean;
}

/** `colbench rank`: the critic scores the run's candidates here, or (--queue) workers are given the jobs. */
async function rankStep(name: string, opts: RankOptions): Promise<void> {
  if (Boolean(opts.critic) === Boolean(opts.criticWeights))
    fail("rank: give the critic either as a server (--critic URL#MODEL) or as a model folder (--critic-weights DIR)");
  if (opts.queue) return queueRank(name, opts);
  if (opts.policyWeights && !opts.criticWeights)
    fail("rank: --policy-weights goes with --critic-weights (both models on this machine)");
  const { critic, policy, template } = await openCritic(opts);
  const unwatch = critic instanceof OpenAICompatibleClient ? sayWaits("rank", critic) : () => {};
  const bar = progressBar("ranking");
  try {
    const summary = await withDatabase("rank", async (store) => {
      const run = await runOf(store, name);
      try {
        const chosen = await templateForRun(
          store,
          run.id,
          (await store.sweet.template(run.id))?.recorded ? opts.template : template,
        );
        return {
          run: run.name,
          template: chosen.name,
          ...(await rankCandidates(store, run.id, critic, {
            groundTruth: opts.groundTruth,
            sum: opts.sum,
            template: chosen,
            concurrency: opts.concurrency,
            onProgress: bar.update,
            policy,
            via: "cli",
            device: opts.device,
          })),
        };
      } finally {
        bar.stop();
      }
    });
    console.log(JSON.stringify(summary));
  } finally {
    unwatch();
    (critic as Partial<LocalScorer>).dispose?.();
    policy?.dispose();
  }
}

/** `colbench rank --queue`: one rank job per state on the run queue; workers reach the critic as a server. */
async function queueRank(name: string, opts: RankOptions): Promise<void> {
  if (!opts.critic) fail("rank --queue: workers reach the critic as a server (--critic URL#MODEL)");
  const critic = parseServerSpec(opts.critic, "--critic");
  const summary = await withDatabase("rank", async (store, db) => {
    const run = await runOf(store, name);
    const template = await templateForRun(store, run.id, opts.template);
    await recordStep(store, run.id, "rank", {
      via: "queue",
      critic: modelLineage(critic),
      template: template.recorded.ref,
      groundTruth: opts.groundTruth,
      sum: Boolean(opts.sum),
    });
    return {
      run: run.name,
      template: template.name,
      ...(await onQueue(db, (queue) =>
        enqueueRank(store, queue, run.id, {
          critic: opts.critic!,
          groundTruth: opts.groundTruth,
          sum: Boolean(opts.sum),
          template: template.name,
        }),
      )),
    };
  });
  console.log(JSON.stringify(summary));
}

/**
 * The critic (a server, or model folders on this machine with the policy beside it) and the template it
 * implies: a local critic's own chat template decides the family unless --template (or the run's record) says otherwise.
 */
async function openCritic(
  opts: RankOptions,
): Promise<{ critic: PromptScorer; policy?: LocalScorer; template: string | undefined }> {
  if (!opts.criticWeights) {
    const critic = new OpenAICompatibleClient(parseServerSpec(opts.critic!, "--critic"), {
      concurrency: opts.concurrency,
    });
    return { critic, template: opts.template };
  }
  const local = await openLocalModels(opts.criticWeights, opts.policyWeights, opts.device);
  const family = local.critic.tokenizer.templateFamily();
  process.stderr.write(`rank: scoring on ${local.critic.engine.device}\n`);
  return {
    critic: local.critic,
    policy: local.policy,
    template: opts.template === undefined && family ? family : opts.template,
  };
}

function registerTurnPairs(program: Command): void {
  program
    .command("turn-pairs")
    .description(
      "SWEET-RL step 4: turn-level pairs, one candidate from the upper half against one from the lower half of each turn's ranking",
    )
    .argument("<run>", "the run's name or id")
    .option(
      "--pairs-per-state <k>",
      "pairs drawn per agent turn (with replacement; the published script's num_pairs)",
      positive("--pairs-per-state"),
      SWEET_DEFAULTS.pairsPerState,
    )
    .option(
      "--seed <s>",
      "the drawing's seed: Python's random.seed(s), as the published script seeds it",
      (v) => {
        if (!/^\d+$/.test(v.trim())) throw new Error(`--seed: expected a whole number, got "${v}"`);
        return Number.parseInt(v, 10);
      },
      SWEET_DEFAULTS.seed,
    )
    .option(
      "--include-own",
      "count the turn's own output (candidate 0) as a candidate; the published pool is the N samples only",
    )
    .addOption(
      new Option(
        "--order <layout>",
        "the order states are drawn in: that of the official export the published scripts read",
      )
        .choices(["task", "best-of-k"])
        .default(SWEET_DEFAULTS.order),
    )
    .action(
      action(
        async (
          name: string,
          opts: { pairsPerState: number; seed: number; includeOwn?: boolean; order: StateOrder },
        ) => {
          const summary = await withDatabase("turn-pairs", async (store) => {
            const run = await runOf(store, name);
            const pool = opts.includeOwn ? "samples+own" : "samples";
            return {
              run: run.name,
              ...(await makeTurnPairs(store, run.id, {
                pairsPerState: opts.pairsPerState,
                seed: opts.seed,
                pool,
                order: opts.order,
                via: "cli",
              })),
              pool,
              order: opts.order,
            };
          });
          console.log(JSON.stringify(summary));
        },
      ),
    );
}

function registerLineage(program: Command): void {
  program
    .command("lineage")
    .description(
      "what made a run's SWEET-RL data: each step's starts (latest first) with the run, servers, models, template, n, seed, pool and order",
    )
    .argument("<run>", "the run's name or id")
    .option("--json", "the records as JSON, one object by step")
    .action(
      action(async (name: string, opts: { json?: boolean }) => {
        const lineage = await withDatabase("lineage", async (store) =>
          loadLineage(store, (await runOf(store, name)).id),
        );
        if (opts.json) {
          console.log(JSON.stringify(lineage));
          return;
        }
        for (const step of PIPELINE_STEPS) {
          const records = lineage[step];
          if (!records.length) {
            console.log(`${step}: not run yet`);
            continue;
          }
          records.forEach((l, i) =>
            console.log(`${i === 0 ? `${step}:` : " ".repeat(step.length + 1)} ${describeLineage(l).join(" · ")}`),
          );
        }
      }),
    );
}

/** Says on stderr, at once, when the step's server stops answering and when it answers again. */
function sayWaits(step: "candidates" | "rank", client: OpenAICompatibleClient): () => void {
  return client.watchOutages((outage) => {
    process.stderr.write(
      outage
        ? `${step}: waiting: ${stepWaitLine(step, stepWait(outage, client.giveUpMs))}\n`
        : `${step}: the server ${client.spec.baseUrl} answers again\n`,
    );
  });
}
