import { benchmarkOf, type Benchmark } from "../benchmarks";
import { loadPrompts } from "../benchmarks/prompts";
import { runConfigSchema, type RunConfig } from "../benchmarks/run-config";
import { MAX_AGENT_TURNS } from "../colbench/protocol";
import type { Store } from "../store";
import { isHuman, playerName, type Player } from "../colbench/run-config";

export interface NewRun {
  benchmark: Benchmark;
  selector: string;
  /** How error messages name the selector: "--tasks" (the default) or the form's "Tasks". */
  selectorField?: string;
  limit?: number;
  bestOf?: number;
  agent: Player;
  simulator: Player;
  promptFiles?: { agent?: string; simulator?: string };
  temperature?: number;
  maxTokens?: number;
  logprobs?: boolean;
  concurrency?: number;
  /** Seconds a model server may stay down before the episodes waiting for it fail (default 10 minutes). */
  giveUpSeconds?: number;
  name?: string;
  /** Dollars per million prompt and completion tokens of each side, for the cost estimate. */
  prices?: RunConfig["prices"];
  /**
   * The benchmark's own options as asked (unchecked; its module's prepareRun checks them and makes
   * its choices once): frontend's embedder, clipPath, profile, browser, placeholderPhoto.
   */
  options?: Record<string, unknown>;
}

export async function createRun(
  store: Store,
  spec: NewRun,
): Promise<{ id: number; name: string; config: RunConfig; notice?: string }> {
  // Selector messages name no flag: the caller says where the text came from (`--tasks`, or the form's "Tasks").
  const field = spec.selectorField ?? "--tasks";
  const taskIds = await store.tasks.resolveSelector(spec.benchmark, spec.selector, spec.limit).catch((error: Error) => {
    throw new Error(`${field} "${spec.selector}": ${error.message}`);
  });
  // Chosen once, here: every episode of the run, resumed or not, is scored the same way.
  const module = benchmarkOf(spec.benchmark);
  // A module without choices to make takes its options as asked; the run config's schema checks them.
  const prepared = module.prepareRun ? await module.prepareRun(spec.options ?? {}) : { options: spec.options ?? {} };
  const config: RunConfig = runConfigSchema.parse({
    benchmark: spec.benchmark,
    selector: spec.selector,
    taskIds,
    limit: spec.limit ? spec.limit : null,
    bestOf: spec.bestOf ?? 1,
    agent: spec.agent,
    simulator: spec.simulator,
    prompts: loadPrompts(spec.benchmark, spec.promptFiles),
    promptSources: { agent: spec.promptFiles?.agent ?? "default", simulator: spec.promptFiles?.simulator ?? "default" },
    sampling: {
      temperature: spec.temperature ?? 1.0,
      maxTokens: spec.maxTokens ?? 1024,
      logprobs: spec.logprobs ?? false,
    },
    maxAgentTurns: module.episode.maxAgentTurns ?? MAX_AGENT_TURNS,
    // A person plays one episode at a time.
    concurrency: isHuman(spec.agent) || isHuman(spec.simulator) ? 1 : (spec.concurrency ?? 16),
    ...(spec.giveUpSeconds ? { giveUpSeconds: spec.giveUpSeconds } : {}),
    prices: spec.prices,
    ...prepared.options,
  });
  const name =
    spec.name ??
    `${spec.benchmark}-${playerName(spec.agent).split("/").pop()}-${new Date().toISOString().replace(/[-:]/g, "").slice(0, 15)}`;
  // A person in a seat makes a played session, never a benchmark run to rank.
  const kind = isHuman(spec.agent) || isHuman(spec.simulator) ? "played" : "benchmark";
  const run = await store.runs.insert({ name, benchmark: spec.benchmark, kind, config });
  return { id: run.id, name, config, notice: prepared.notice };
}
