import { loadPrompts } from "../colbench/prompts";
import type { Benchmark } from "../colbench/tasks";
import { MAX_AGENT_TURNS } from "../colbench/protocol";
import type { Store } from "../store";
import { isHuman, playerName, runConfigSchema, type Player, type RunConfig } from "../colbench/run-config";
import { DEFAULT_BROWSER, DEFAULT_PROFILE, type BrowserName, type ProfileName } from "../colbench/render-profile";
import { resolvePlaceholderPhoto } from "../scoring/frontend/placeholder-photo";
import { chooseFrontendEmbedder } from "../scoring/frontend/embedders/choose";

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
  /** Frontend: left out, CLIP ViT-B/32 when its weights are cached or can be fetched, else default-v2. */
  embedder?: "clip-vit-b32" | "default";
  /** clip-vit-b32's weights: a folder or hub id. */
  clipPath?: string;
  /** Dollars per million prompt and completion tokens of each side, for the cost estimate. */
  prices?: RunConfig["prices"];
  /** Frontend: the render profile (default paper), engine (default chromium) and the published placeholder photo's file. */
  profile?: ProfileName;
  browser?: BrowserName;
  placeholderPhoto?: string;
}

export async function createRun(store: Store, spec: NewRun): Promise<{ id: number; name: string; config: RunConfig; notice?: string }> {
  // Selector messages name no flag: the caller says where the text came from (`--tasks`, or the form's "Tasks").
  const field = spec.selectorField ?? "--tasks";
  const taskIds = await store.tasks.resolveSelector(spec.benchmark, spec.selector, spec.limit).catch((error: Error) => {
    throw new Error(`${field} "${spec.selector}": ${error.message}`);
  });
  const photo = spec.benchmark === "frontend" ? await resolvePlaceholderPhoto(spec.placeholderPhoto) : null;
  // Chosen once, here: every episode of the run, resumed or not, is scored with the same embedder.
  const choice = spec.benchmark === "frontend" ? await chooseFrontendEmbedder({ embedder: spec.embedder, clip: spec.clipPath }) : null;
  const config: RunConfig = runConfigSchema.parse({
    benchmark: spec.benchmark,
    selector: spec.selector,
    taskIds,
    bestOf: spec.bestOf ?? 1,
    agent: spec.agent,
    simulator: spec.simulator,
    prompts: loadPrompts(spec.benchmark, spec.promptFiles),
    promptSources: { agent: spec.promptFiles?.agent ?? "default", simulator: spec.promptFiles?.simulator ?? "default" },
    sampling: { temperature: spec.temperature ?? 1.0, maxTokens: spec.maxTokens ?? 1024, logprobs: spec.logprobs ?? false },
    maxAgentTurns: MAX_AGENT_TURNS,
    // A person plays one episode at a time.
    concurrency: isHuman(spec.agent) || isHuman(spec.simulator) ? 1 : (spec.concurrency ?? 16),
    ...(spec.giveUpSeconds ? { giveUpSeconds: spec.giveUpSeconds } : {}),
    embedder: choice?.embedder ?? spec.embedder ?? "default",
    clipPath: choice?.clip ?? spec.clipPath,
    embedderReason: choice?.reason,
    prices: spec.prices,
    render: { name: spec.profile ?? DEFAULT_PROFILE, browser: spec.browser ?? DEFAULT_BROWSER, placeholders: photo?.placeholders ?? "generated" },
    ...(photo ? { placeholderPhoto: photo.path } : {}),
  });
  const name = spec.name ?? `${spec.benchmark}-${playerName(spec.agent).split("/").pop()}-${new Date().toISOString().replace(/[-:]/g, "").slice(0, 15)}`;
  // A person in a seat makes a played session, never a benchmark run to rank.
  const kind = isHuman(spec.agent) || isHuman(spec.simulator) ? "played" : "benchmark";
  const run = await store.runs.insert({ name, benchmark: spec.benchmark, kind, config });
  return { id: run.id, name, config, notice: choice?.notice };
}
