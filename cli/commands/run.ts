import fs from "node:fs";
import { Command, InvalidArgumentError, Option } from "commander";
import { MultiBar, Presets } from "cli-progress";
import { BENCHMARKS, benchmarkOf, type Benchmark } from "../../lib/benchmarks";
import { EMBEDDER_NAMES, type EmbedderName } from "../../lib/colbench/run-config";
import { parseDuration } from "../../lib/colbench/duration";
import { parseServerSpec } from "../../lib/colbench/server-spec";
import { openEventBus } from "../../lib/events";
import { createRun } from "../../lib/runs/create";
import { playRun } from "../../lib/runs/play-run";
import { loadRunConfig, type RunStats } from "../../lib/runs/runner";
import { rescoreRun } from "../../lib/runs/rescore";
import {
  BROWSERS,
  PROFILE_NAMES,
  profileLabel,
  type BrowserName,
  type ProfileName,
} from "../../lib/colbench/render-profile";
import type { Store } from "../../lib/store";
import type { Database } from "../../lib/db/open";
import { loadPipelineView } from "../../lib/sweet/pipeline-view";
import { exportLineage, loadLineage } from "../../lib/sweet/lineage";
import { officialExportNotice, officialLines, type OfficialInputs } from "../../lib/sweet/official";
import { templateForRun } from "../../lib/sweet/run-template";
import { TRAINING_FORMATS, trainingLines, type TrainingFormat } from "../../lib/sweet/pipeline";
import { describeFailure } from "../../lib/colbench/failure";
import { summarizeRewards } from "../../lib/scoring/metrics/metrics";
import { enqueueRun, queueConfigured } from "../../lib/queue/enqueue";
import { JobQueue } from "../../lib/queue/queue";
import { QueueWorker } from "../../lib/queue/worker";
import { withDatabase } from "../database";
import { hubProgress } from "../hub-progress";
import { action, fail } from "../errors";

/** "0.15/0.60": dollars per million prompt and completion tokens. */
const prices = (name: string) => (value: string) => {
  const m = /^\s*(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(value);
  if (!m)
    throw new Error(`${name}: expected PROMPT/COMPLETION dollars per million tokens, e.g. 0.15/0.60, got "${value}"`);
  return { prompt: Number(m[1]), completion: Number(m[2]) };
};

const int = (name: string) => (value: string) => {
  const n = Number.parseInt(value, 10);
  if (!Number.isInteger(n) || n < 1 || String(n) !== value.trim())
    throw new Error(`${name}: expected a positive whole number, got "${value}"`);
  return n;
};

async function findRun(store: Store, nameOrId: string) {
  const run = await store.runs.find(nameOrId);
  if (!run) fail(`no run named "${nameOrId}" (see the Runs page, or \`colbench runs\`)`);
  return run;
}

/** Plain functions, not methods: `update` is handed on as a callback, detached from the display. */
interface ProgressDisplay {
  update: (p: { done: number; running: number; failed: number; turns: number; tokens: number }) => void;
  log: (line: string) => void;
  stop: () => void;
}

/**
 * A bar on a terminal; elsewhere (a pipe, a log file, CI) a plain line at most every 5 s and one at
 * the end, with the same figures against the run's real total.
 */
function progressDisplay(total: number, started: number): ProgressDisplay {
  const rate = (turns: number) => (turns / Math.max((performance.now() - started) / 1000, 0.001)).toFixed(1);
  if (process.stderr.isTTY) {
    const bars = new MultiBar(
      {
        format:
          "{bar} {value}/{total} episodes | running {running} | failed {failed} | {turnRate} turns/s | {tokens} tokens",
        stream: process.stderr,
        hideCursor: true,
      },
      Presets.shades_classic,
    );
    const bar = bars.create(total, 0, { running: 0, failed: 0, turnRate: "0.0", tokens: 0 });
    return {
      update: (p) =>
        bar.update(p.done, { running: p.running, failed: p.failed, turnRate: rate(p.turns), tokens: p.tokens }),
      log: (line) => bars.log(line),
      stop: () => bars.stop(),
    };
  }
  let last: Parameters<ProgressDisplay["update"]>[0] | null = null;
  let printedAt = 0;
  let stopped = false;
  const print = () => {
    if (!last) return;
    printedAt = performance.now();
    process.stderr.write(
      `${last.done}/${total} episodes | running ${last.running} | failed ${last.failed} | ${rate(last.turns)} turns/s | ${last.tokens} tokens\n`,
    );
  };
  return {
    update: (p) => {
      last = p;
      if (performance.now() - printedAt >= 5000) print();
    },
    log: (line) => process.stderr.write(line),
    stop: () => {
      if (!stopped) print();
      stopped = true;
    },
  };
}

/** Plays a run's unfinished episodes with a progress display on stderr, then writes the trajectories. */
async function play(
  store: Store,
  db: Database,
  runId: number,
  opts: { concurrency?: number; out?: string; detach?: boolean },
): Promise<RunStats | null> {
  const config = await loadRunConfig(store, runId);
  const runtime = await benchmarkOf(config.benchmark).runtime();
  if (runtime.prefetch) {
    // Fetched here, with a bar per file, rather than silently when the scorer opens.
    const progress = hubProgress();
    await runtime.prefetch(config, progress.onProgress).finally(() => progress.stop());
  }
  // A studio open on the same database (a PostgreSQL server, or the embedded one through its
  // owner's socket) shows this run's turns live.
  const bus = await openEventBus(db.events);
  const started = performance.now();
  const display = progressDisplay(config.taskIds.length * config.bestOf, started);
  const unsubscribe = bus.subscribe((event) => {
    if (event.type === "episode" && event.runId === runId && event.status === "failed") {
      display.log(`episode ${event.episodeId} (task ${event.taskId}, sample ${event.sample}) failed: ${event.error}\n`);
    }
  });
  try {
    let stats: RunStats;
    if (queueConfigured(db)) {
      // A PostgreSQL server: the episodes go on the run queue, where every `colbench worker` takes
      // them; this command works them too unless detached, and waits until the run has ended.
      const queue = await JobQueue.open(db.url);
      try {
        const { queued } = await enqueueRun(store, queue, runId);
        process.stderr.write(`queued ${queued} episode(s) on the run queue\n`);
        if (opts.detach) return null;
        stats = await workUntilEnded(store, queue, bus, runId, opts.concurrency ?? config.concurrency, display.update);
      } finally {
        await queue.close().catch(() => {});
      }
    } else {
      stats = await playRun(store, runId, { bus, concurrency: opts.concurrency, onProgress: display.update });
    }
    display.stop();
    if (opts.out) await writeOfficial(store, runId, opts.out);
    return stats;
  } finally {
    display.stop();
    unsubscribe();
    await bus.close();
  }
}

/** Works the queue beside the other workers until none of the run's episodes is left to play. */
async function workUntilEnded(
  store: Store,
  queue: JobQueue,
  bus: Awaited<ReturnType<typeof openEventBus>>,
  runId: number,
  concurrency: number,
  onProgress: ProgressDisplay["update"],
): Promise<RunStats> {
  const started = performance.now();
  let turns = 0;
  const unsubscribe = bus.subscribe((event) => {
    if (event.type === "turn" && event.runId === runId) turns++;
  });
  const worker = new QueueWorker({ store, queue, bus, kinds: ["play", "score"], concurrency, pollMs: 250 });
  await worker.start();
  try {
    for (;;) {
      const counts = await store.runs.counts(runId);
      onProgress({ done: counts.done, running: counts.running, failed: counts.failed, turns, tokens: 0 });
      if (counts.pending + counts.running === 0) {
        return {
          counts,
          episodes: counts.total,
          turns,
          tokens: 0,
          wallMs: performance.now() - started,
          episodeMs: 0,
          waitMs: 0,
          scoreMs: 0,
          lost: worker.lost,
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    // Jobs of other runs this command took meanwhile go back to the queue at once.
    await worker.stop(0);
    unsubscribe();
  }
}

async function writeOfficial(store: Store, runId: number, out: string): Promise<number> {
  return writeLines(officialLines(store, runId, await templateForRun(store, runId)), out);
}

async function writeLines(lines: AsyncIterable<unknown>, out: string): Promise<number> {
  const stream: NodeJS.WritableStream = out === "-" ? process.stdout : fs.createWriteStream(out);
  let n = 0;
  for await (const line of lines) {
    if (!stream.write(JSON.stringify(line) + "\n"))
      await new Promise<void>((resolve) => stream.once("drain", () => resolve()));
    n++;
  }
  if (stream !== process.stdout)
    await new Promise<void>((resolve, reject) =>
      (stream as fs.WriteStream).end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  return n;
}

/** Each failed episode of a run with the reason it failed, as the summary and the export give them. */
async function failureLines(store: Store, runId: number) {
  return (await store.episodes.failuresOfRun(runId)).map((f) => ({
    episode: f.episodeId,
    task: f.taskId,
    sample: f.sample,
    reason: describeFailure(f.failure),
  }));
}

async function summary(store: Store, runId: number, name: string, stats: RunStats) {
  const episodes = await store.runs.doneRewards(runId);
  const rewards = summarizeRewards(episodes.map((e) => ({ task: String(e.taskId), reward: e.reward ?? 0 })));
  const result = {
    run: name,
    episodes: stats.counts.total,
    done: stats.counts.done,
    failed: stats.counts.failed,
    average_reward: rewards.average_correctness,
    success_rate: rewards.success_rate,
    best_of_k: rewards.best_of_k,
    best_of_k_success: rewards.best_of_k_success,
    turns: stats.turns,
    tokens: stats.tokens,
    ...(stats.counts.failed ? { failures: await failureLines(store, runId) } : {}),
  };
  console.log(JSON.stringify(result));
  if (stats.counts.done < stats.counts.total) process.exitCode = 1;
}

export function register(program: Command): void {
  registerRun(program);
  registerResume(program);
  registerRescore(program);
  registerExport(program);
}

interface RunCommandOptions {
  detach?: boolean;
  benchmark: Benchmark;
  tasks: string;
  agent: string;
  simulator: string;
  bestOf: number;
  concurrency: number;
  limit?: number;
  name?: string;
  out?: string;
  agentPrompt?: string;
  simulatorPrompt?: string;
  temperature: number;
  maxTokens: number;
  logprobs?: boolean;
  embedder?: EmbedderName;
  clip?: string;
  agentPrice?: { prompt: number; completion: number };
  simulatorPrice?: { prompt: number; completion: number };
  profile: ProfileName;
  browser: BrowserName;
  placeholderPhoto?: string;
  giveUp?: number;
  option?: Record<string, string>;
  topP: number;
  seed: number;
  agentDevice: "webgpu" | "cpu";
}

function registerRun(program: Command): void {
  runOptions(program.command("run")).action(action(startRun));
}

/** `colbench run`'s options: the benchmark, tasks and servers, then sampling, prices and a frontend run's own. */
function runOptions(command: Command): Command {
  return command
    .description("run ColBench episodes between an agent and a simulator on OpenAI-compatible model servers")
    .addOption(new Option("--benchmark <kind>", BENCHMARKS.join(" or ")).choices(BENCHMARKS).makeOptionMandatory())
    .option(
      "--tasks <selector>",
      "which tasks: all | split=test | source=FILE | index=0-49 (position in its file, from 0) | lines=1-50 (from 1) | ids=21,25,30-40 (the studio's task ids); clauses joined by commas, e.g. split=test,index=0-99",
      "all",
    )
    .requiredOption(
      "--agent <url#model>",
      "the agent's server, e.g. http://localhost:8000/v1#meta-llama/Llama-3.1-8B-Instruct; or local:MODEL, a model folder or hub id generating in this process (WebGPU through Dawn, or --agent-device cpu)",
    )
    .requiredOption("--simulator <url#model>", "the simulated human's server")
    .option("--best-of <k>", "episodes per task", int("--best-of"), 1)
    .option("--concurrency <n>", "episodes played at once", int("--concurrency"), 16)
    .option("--limit <n>", "only the first N selected tasks", int("--limit"))
    .option("--name <run>", "the run's name (default: benchmark, agent model and time)")
    .option("--out <file>", "write the official trajectory JSONL here when done")
    .option("--agent-prompt <file>", "replace the agent's system prompt with this file")
    .option("--simulator-prompt <file>", "replace the simulator's prompt with this file")
    .option("--temperature <t>", "the agent's sampling temperature", Number.parseFloat, 1.0)
    .option("--max-tokens <n>", "the agent's token limit per turn", int("--max-tokens"), 1024)
    .option("--logprobs", "ask the agent's server for per-token log-probabilities")
    .option("--top-p <p>", "with --agent local:MODEL: nucleus sampling's probability mass", Number.parseFloat, 1)
    .option(
      "--seed <n>",
      "with --agent local:MODEL: the sampling seed (a rerun draws the same turns)",
      (v: string) => Number.parseInt(v, 10),
      0,
    )
    .addOption(
      new Option("--agent-device <device>", "with --agent local:MODEL: where it generates")
        .choices(["webgpu", "cpu"])
        .default("webgpu"),
    )
    .addOption(
      new Option(
        "--embedder <name>",
        "frontend: image embedder for similarity (default: clip-vit-b32 when its weights are cached or can be fetched, else default-v2)",
      ).choices(EMBEDDER_NAMES),
    )
    .option(
      "--clip <ref>",
      "frontend: CLIP ViT-B/32's weights, a folder or hub id (default: $COLBENCH_CLIP, else openai/clip-vit-base-patch32 through the Hugging Face cache)",
    )
    .option(
      "--agent-price <p/c>",
      "the agent model's dollars per million prompt/completion tokens, for the cost estimate (e.g. 0.15/0.60)",
      prices("--agent-price"),
    )
    .option(
      "--simulator-price <p/c>",
      "the simulator model's dollars per million prompt/completion tokens",
      prices("--simulator-price"),
    )
    .addOption(
      new Option(
        "--profile <name>",
        "frontend: render profile, paper (the published scorer's screenshot) or studio-1280",
      )
        .choices(PROFILE_NAMES)
        .default("paper"),
    )
    .addOption(
      new Option("--browser <engine>", "frontend: render engine, chromium or firefox (scripts/setup.sh --with-firefox)")
        .choices(BROWSERS)
        .default("chromium"),
    )
    .option(
      "--placeholder-photo <file>",
      "frontend: the published placeholder photo (picsum.photos/id/48); default $COLBENCH_PLACEHOLDER_PHOTO, else generated stand-ins",
    )
    .option(
      "--option <name=value>",
      "a run option of the benchmark's own, repeatable (e.g. math-hard: --option judge=URL#MODEL); its module checks it",
      (v: string, all: Record<string, string> = {}) => {
        const at = v.indexOf("=");
        if (at <= 0) throw new InvalidArgumentError(`--option "${v}": write NAME=VALUE`);
        return { ...all, [v.slice(0, at)]: v.slice(at + 1) };
      },
    )
    .option(
      "--detach",
      "with DATABASE_URL: only put the episodes on the run queue and exit (`colbench worker`s play them)",
    )
    .option(
      "--give-up <duration>",
      "how long a model server may stay down (no connection, timeouts, 5xx) before the episodes waiting for it fail, e.g. 90s, 1h (default 10m, or $COLBENCH_GIVE_UP)",
      (v: string) => parseDuration(v),
    );
}

/** Creates the run from `colbench run`'s options, plays it (or queues it with --detach) and prints its summary. */
async function startRun(opts: RunCommandOptions): Promise<void> {
  const agent = opts.agent.startsWith("local:")
    ? // Loaded only here: WebGPU (Dawn) stays out of runs on servers.
      await import("../../lib/gpu/node/local-generator").then((m) =>
        m.localAgentPlayer(opts.agent.slice("local:".length), {
          device: opts.agentDevice,
          topP: opts.topP,
          seed: opts.seed,
        }),
      )
    : parseServerSpec(opts.agent, "--agent");
  const simulator = parseServerSpec(opts.simulator, "--simulator");
  await withDatabase("run", async (store, db) => {
    const run = await createRun(store, {
      benchmark: opts.benchmark,
      selector: opts.tasks,
      limit: opts.limit,
      bestOf: opts.bestOf,
      agent,
      simulator,
      promptFiles: { agent: opts.agentPrompt, simulator: opts.simulatorPrompt },
      temperature: opts.temperature,
      maxTokens: opts.maxTokens,
      logprobs: opts.logprobs,
      concurrency: opts.concurrency,
      giveUpSeconds: opts.giveUp,
      name: opts.name,
      prices:
        opts.agentPrice || opts.simulatorPrice ? { agent: opts.agentPrice, simulator: opts.simulatorPrice } : undefined,
      // The benchmark's own options; its module checks them (others than frontend have none).
      options: {
        ...opts.option,
        embedder: opts.embedder,
        clipPath: opts.clip,
        profile: opts.profile,
        browser: opts.browser,
        placeholderPhoto: opts.placeholderPhoto,
      },
    });
    process.stderr.write(
      `run "${run.name}" (id ${run.id}): ${run.config.taskIds.length} tasks x ${run.config.bestOf}\n`,
    );
    for (const line of benchmarkOf(run.config.benchmark).describeRun(run.config)) process.stderr.write(`${line}\n`);
    if (run.notice) process.stderr.write(`colbench: ${run.notice}\n`);
    const stats = await play(store, db, run.id, { out: opts.out, detach: opts.detach });
    if (stats) await summary(store, run.id, run.name, stats);
  });
}

function registerResume(program: Command): void {
  program
    .command("resume")
    .description("continue a run after a crash or a stop: unfinished episodes go on from their last stored turn")
    .argument("<run>", "the run's name or id")
    .option("--concurrency <n>", "episodes played at once (default: the run's own)", int("--concurrency"))
    .option("--out <file>", "write the official trajectory JSONL here when done")
    .option("--detach", "with DATABASE_URL: only put the unfinished episodes on the run queue and exit")
    .action(
      action(async (name: string, opts: { concurrency?: number; out?: string; detach?: boolean }) => {
        await withDatabase("resume", async (store, db) => {
          const run = await findRun(store, name);
          const stats = await play(store, db, run.id, opts);
          if (stats) await summary(store, run.id, run.name, stats);
        });
      }),
    );
}

function registerRescore(program: Command): void {
  program
    .command("rescore")
    .description(
      "render a finished frontend run's final pages and targets again under another render profile, engine or placeholder photo, and replace its scores (all at once, when every new one exists)",
    )
    .argument("<run>", "the run's name or id")
    .addOption(new Option("--profile <name>", "render profile (default: the run's own)").choices(PROFILE_NAMES))
    .addOption(new Option("--browser <engine>", "render engine (default: the run's own)").choices(BROWSERS))
    .option(
      "--placeholder-photo <file>",
      "the published placeholder photo (picsum.photos/id/48); default $COLBENCH_PLACEHOLDER_PHOTO, else generated stand-ins",
    )
    .option("--concurrency <n>", "pages scored at once", int("--concurrency"))
    .action(
      action(
        async (
          name: string,
          opts: { profile?: ProfileName; browser?: BrowserName; placeholderPhoto?: string; concurrency?: number },
        ) => {
          await withDatabase("rescore", async (store) => {
            const run = await findRun(store, name);
            const bars = new MultiBar(
              {
                format: "{bar} {value}/{total} episodes rescored",
                stream: process.stderr,
                hideCursor: true,
                noTTYOutput: false,
                notTTYSchedule: 5000,
              },
              Presets.shades_classic,
            );
            const bar = bars.create(1, 0);
            try {
              const result = await rescoreRun(store, run.id, {
                ...opts,
                onProgress: (done, total) => {
                  bar.setTotal(total);
                  bar.update(done);
                },
              });
              bars.stop();
              process.stderr.write(
                `rescored "${run.name}": ${profileLabel(result.from)} -> ${profileLabel(result.to)}\n`,
              );
              console.log(
                JSON.stringify({
                  run: run.name,
                  episodes: result.episodes,
                  from: result.from,
                  to: result.to,
                  average_reward_before: result.meanBefore,
                  average_reward: result.meanAfter,
                }),
              );
            } finally {
              bars.stop();
            }
          });
        },
      ),
    );
}

function registerExport(program: Command): void {
  program
    .command("export")
    .description(
      "write a run as JSONL: its trajectories (official, official-best-of-k), or SWEET-RL training pairs (openrlhf-critic, openrlhf-policy, trl-dpo)",
    )
    .argument("<run>", "the run's name or id")
    .addOption(
      new Option("--format <format>", "output format")
        .choices(["official", "official-best-of-k", ...TRAINING_FORMATS])
        .default("official"),
    )
    .option("--out <file>", "output file (default: standard output)", "-")
    .option("--with-prompt", "openrlhf-policy: {prompt, chosen, rejected} instead of full texts")
    .addOption(
      new Option(
        "--inputs <kind>",
        "official formats: each agent turn's input as the prompt string the policy saw (the published scripts read it), or as the stored chat messages",
      )
        .choices(["string", "messages"])
        .default("string"),
    )
    .option(
      "--template <ref>",
      "the chat template strings are written in: a hub id or model folder (its tokenizer_config.json), or a fallback (llama3, chatml); default: the run's recorded one",
    )
    .action(
      action(
        async (
          name: string,
          opts: { out: string; format: string; withPrompt?: boolean; template?: string; inputs: OfficialInputs },
        ) => {
          await withDatabase("export", async (store) => {
            const run = await findRun(store, name);
            const template = await templateForRun(store, run.id, opts.template);
            const lines =
              opts.format === "official" || opts.format === "official-best-of-k"
                ? officialLines(store, run.id, template, {
                    layout: opts.format === "official" ? "task" : "best-of-k",
                    inputs: opts.inputs,
                  })
                : trainingLines(store, run.id, opts.format as TrainingFormat, {
                    withPrompt: opts.withPrompt,
                    template,
                  });
            const n = await writeLines(lines, opts.out);
            if (opts.out !== "-") process.stderr.write(`wrote ${n} lines to ${opts.out}\n`);
            // An empty file says which step would have filled it.
            if (n === 0) {
              const empty = (await loadPipelineView(store, run)).exports.find((x) => x.format === opts.format)?.empty;
              if (empty)
                process.stderr.write(`colbench export: ${opts.format} of "${run.name}" is empty: ${empty.cli}\n`);
            }
            // The trajectory files hold finished episodes only; say which were left out, and why.
            if (opts.format === "official" || opts.format === "official-best-of-k") {
              const failures = await failureLines(store, run.id);
              if (failures.length) process.stderr.write(`${JSON.stringify({ left_out: failures.length, failures })}\n`);
              const notice = officialExportNotice(run.benchmark);
              if (notice) process.stderr.write(notice);
            }
            // Turn-pair files say which candidate pool their pairs were drawn from, and how; every training
            // file says what made its lines (the steps' records: servers, models, template, settings).
            if (opts.format === "openrlhf-policy" || opts.format === "trl-dpo") {
              const params = (await store.sweet.pairs(run.id, "turn"))[0]?.params as
                Record<string, unknown> | undefined;
              if (params)
                process.stderr.write(
                  `${JSON.stringify({ template: template.name, pool: params.pool ?? "samples+own", pairsPerState: params.pairsPerState, seed: params.seed, order: params.order, lineage: exportLineage(run, opts.format, template.recorded.ref, await loadLineage(store, run.id)) })}\n`,
                );
            } else if (n > 0 && (TRAINING_FORMATS as readonly string[]).includes(opts.format)) {
              const lineage = exportLineage(run, opts.format, template.recorded.ref, await loadLineage(store, run.id));
              process.stderr.write(`${JSON.stringify({ template: template.name, lineage })}\n`);
            }
          });
        },
      ),
    );
}
