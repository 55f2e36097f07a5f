import type { OpenAICompatibleClient } from "../models/openai-client";
import type { JobFence } from "../store/workers";
import type { ChatMessage } from "../models/types";
import type { Store } from "../store";
import type { CandidateScore } from "../store/sweet";
import { chatTemplate, promptText, type TemplateName } from "./chat-template";
import { advantage, criticPrompt, criticScore } from "./critic";
import { criticPairLine, policyPairLine, trlDpoLine } from "./exports";
import { trajectoryPairs } from "./trajectory-pairs";
import { continuationStats, scoreTurn, type ContinuationScorer, type PromptScorer } from "./score-turn";
import { drawTurnPairs } from "./turn-pairs";

// The SWEET-RL steps over a run in the store. Each can be run again: it skips what is done
// (candidates, scores) or replaces its output whole (pairs), so a rerun after a crash completes
// the work and a rerun after success adds nothing.

export type Progress = (done: number, total: number) => void;

/** Works through `items` with at most `concurrency` at once; after an abort no new item starts. */
async function eachConcurrently<T>(items: T[], concurrency: number, signal: AbortSignal | undefined, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      await work(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * Trajectory pairs of a run by the benchmark's rule, stored (replacing earlier ones). Whether the
 * critic's training text carries the final answer is kept with them for the export.
 */
export async function makeTrajectoryPairs(store: Store, runId: number, options: { groundTruth?: boolean } = {}): Promise<{ pairs: number; tasks: number }> {
  const run = await store.runs.find(runId);
  if (!run) throw new Error(`no run ${runId}`);
  const samples = await store.sweet.samples(runId);
  const pairs = trajectoryPairs(run.benchmark, samples.map((s) => ({ task: s.taskId, sample: s.sample, reward: s.reward, id: s.episodeId })));
  const params = { rule: `${run.benchmark}-best-of-k`, groundTruth: options.groundTruth ?? false };
  const stored = await store.sweet.replacePairs(runId, "trajectory", "rule", pairs.map((p) => ({ chosenId: p.chosen, rejectedId: p.rejected })), params);
  return { pairs: stored, tasks: new Set(pairs.map((p) => p.task)).size };
}

function messagesOf(prompt: unknown, turnId: number): ChatMessage[] {
  if (!Array.isArray(prompt)) throw new Error(`turn ${turnId}: its prompt was stored as text (an imported file); sampling candidates needs the chat messages a run stores`);
  return prompt as ChatMessage[];
}

/** One state's candidates (a queued job's whole work, `lib/queue`): its own output as 0, then N samples. */
export async function sampleState(
  store: Store,
  policy: OpenAICompatibleClient,
  state: { turnId: number; prompt: unknown; output: string },
  options: { n: number; template: ReturnType<typeof chatTemplate>; temperature?: number; maxTokens?: number; fence?: JobFence },
): Promise<number> {
  const messages = messagesOf(state.prompt, state.turnId);
  const [own, samples] = await Promise.all([
    policy.textLogprobs(promptText(options.template, messages), state.output),
    policy.sample({ messages, temperature: options.temperature ?? 1.0, maxTokens: options.maxTokens ?? 1024 }, options.n),
  ]);
  const ownStats = continuationStats(own);
  const rows = [
    { index: 0, text: state.output, policyModel: policy.spec.model, policyMean: ownStats.mean, policySum: ownStats.sum },
    ...samples.map((s, i) => {
      const lps = s.logprobs.map((t) => t.logprob);
      return { index: i + 1, text: s.text, policyModel: policy.spec.model, policyMean: mean(lps), policySum: sum(lps) };
    }),
  ];
  return store.sweet.insertCandidates(state.turnId, rows, options.fence);
}

/**
 * Ranks one state's unranked candidates with a critic server (a queued job's whole work): the same
 * score and advantage as `rankCandidates` gives each, stored together.
 */
export async function rankState(
  store: Store,
  runId: number,
  turnId: number,
  critic: PromptScorer,
  options: { groundTruth?: boolean; sum?: boolean; template?: TemplateName; fence?: JobFence } = {},
): Promise<number> {
  const template = chatTemplate(options.template ?? "llama3");
  const todo = await store.sweet.unranked(runId, turnId);
  const scores: CandidateScore[] = [];
  for (const c of todo) {
    const prompt = criticPrompt(template, options.groundTruth === false ? null : c.groundTruth, promptText(template, c.prompt), c.text);
    const score = criticScore(template, await critic.promptLogprobs(prompt), { sum: options.sum });
    scores.push({ id: c.id, turnId: c.turnId, index: c.index, criticScore: score, advantage: advantage(score, options.sum ? c.policySum : c.policyMean) });
  }
  await store.sweet.score(critic.spec.model, scores, options.fence);
  return scores.length;
}

/**
 * N candidates per agent turn from the policy at temperature 1.0 (max 1024 tokens), each with the
 * mean and sum of its own token log-probs; the turn's own output is candidate 0, scored by the
 * policy through the completions endpoint. Turns that have their candidates already are skipped.
 */
export async function sampleCandidates(
  store: Store,
  runId: number,
  policy: OpenAICompatibleClient,
  options: { n?: number; fraction?: number; template?: TemplateName; temperature?: number; maxTokens?: number; onProgress?: Progress; signal?: AbortSignal; concurrency?: number } = {},
): Promise<{ states: number; sampled: number; candidates: number }> {
  const n = options.n ?? 16;
  const template = chatTemplate(options.template ?? "llama3");
  const states = await store.sweet.states(runId, options.fraction ?? 1);
  const todo = states.filter((s) => s.candidates < n + 1);
  let done = states.length - todo.length;
  let added = 0;
  options.onProgress?.(done, states.length);
  await eachConcurrently(todo, options.concurrency ?? 64, options.signal, async (state) => {
    added += await sampleState(store, policy, state, { n, template, temperature: options.temperature, maxTokens: options.maxTokens });
    options.onProgress?.(++done, states.length);
  });
  return { states: states.length, sampled: todo.length, candidates: added };
}

/**
 * The critic scores every candidate not yet scored: its prompt log-probs over the span after the
 * last end-of-turn token (mean, or sum), minus the policy's own; with the task's final answer in
 * front unless `groundTruth` is false. A critic that scores many prompts at once (a model on this
 * machine, lib/gpu) gets a turn's candidates together, and with `policy` the policy's log-probs are
 * recomputed by that model and stored with the scores.
 */
export async function rankCandidates(
  store: Store,
  runId: number,
  critic: PromptScorer,
  options: { groundTruth?: boolean; sum?: boolean; template?: TemplateName; onProgress?: Progress; signal?: AbortSignal; concurrency?: number; policy?: ContinuationScorer } = {},
): Promise<{ ranked: number }> {
  const template = chatTemplate(options.template ?? "llama3");
  const todo = await store.sweet.unranked(runId);
  let done = 0;
  options.onProgress?.(0, todo.length);
  // Scores are written in batches, one at a time; a crash loses at most the unwritten ones, which a rerun scores again.
  let batch: CandidateScore[] = [];
  let writing = Promise.resolve();
  const flush = () => {
    const rows = batch;
    batch = [];
    writing = writing.then(() => store.sweet.score(critic.spec.model, rows));
    return writing;
  };
  const groundTruthOf = (c: (typeof todo)[number]) => (options.groundTruth === false ? null : c.groundTruth);
  if (critic.promptLogprobsBatch || options.policy) {
    if (!critic.promptLogprobsBatch) throw new Error("recomputing the policy's log-probs needs a critic on this machine too");
    const batchCritic = critic as PromptScorer & Required<Pick<PromptScorer, "promptLogprobsBatch">>;
    const turns = new Map<number, typeof todo>();
    for (const c of todo) turns.set(c.turnId, [...(turns.get(c.turnId) ?? []), c]);
    // Two turns at a time: one tokenises while the other runs.
    await eachConcurrently([...turns.values()], Math.min(options.concurrency ?? 2, 2), options.signal, async (candidates) => {
      const first = candidates[0]!;
      const scored = await scoreTurn(template, { prompt: first.prompt, groundTruth: groundTruthOf(first), candidates }, batchCritic, options.policy ?? null, { sum: options.sum });
      scored.forEach((s, i) => {
        const c = candidates[i]!;
        batch.push({ id: c.id, turnId: c.turnId, index: c.index, criticScore: s.criticScore, advantage: s.advantage, ...(options.policy ? { policy: { model: options.policy.spec.model, mean: s.policyMean, sum: s.policySum } } : {}) });
      });
      if (batch.length >= 256) await flush();
      done += candidates.length;
      options.onProgress?.(done, todo.length);
    }).finally(flush);
    return { ranked: todo.length };
  }
  await eachConcurrently(todo, options.concurrency ?? 64, options.signal, async (c) => {
    const prompt = criticPrompt(template, groundTruthOf(c), promptText(template, c.prompt), c.text);
    const score = criticScore(template, await critic.promptLogprobs(prompt), { sum: options.sum });
    batch.push({ id: c.id, turnId: c.turnId, index: c.index, criticScore: score, advantage: advantage(score, options.sum ? c.policySum : c.policyMean) });
    if (batch.length >= 256) await flush();
    options.onProgress?.(++done, todo.length);
  }).finally(flush);
  return { ranked: todo.length };
}

/** Turn pairs drawn from the ranked candidates (replacing earlier ones). */
export async function makeTurnPairs(store: Store, runId: number, options: { pairsPerState?: number; seed?: number } = {}): Promise<{ states: number; pairs: number }> {
  const ranked = await store.sweet.ranked(runId);
  const byTurn = new Map<number, Array<{ id: number; advantage: number }>>();
  for (const c of ranked) {
    const list = byTurn.get(c.turnId) ?? [];
    list.push({ id: c.id, advantage: c.advantage! });
    byTurn.set(c.turnId, list);
  }
  const params = { pairsPerState: options.pairsPerState ?? 4, seed: options.seed ?? 42 };
  const pairs = drawTurnPairs([...byTurn].map(([state, candidates]) => ({ state, candidates })), params);
  const stored = await store.sweet.replacePairs(runId, "turn", "critic", pairs.map((p) => ({ chosenId: p.chosen, rejectedId: p.rejected })), params);
  return { states: byTurn.size, pairs: stored };
}

export type TrainingFormat = "openrlhf-critic" | "openrlhf-policy" | "trl-dpo";
export const TRAINING_FORMATS: readonly TrainingFormat[] = ["openrlhf-critic", "openrlhf-policy", "trl-dpo"];

/** The lines of a training file, from the pairs the steps above stored. */
export async function* trainingLines(
  store: Store,
  runId: number,
  format: TrainingFormat,
  options: { groundTruth?: boolean; template?: TemplateName; withPrompt?: boolean } = {},
): AsyncGenerator<Record<string, unknown>> {
  const template = chatTemplate(options.template ?? "llama3");
  if (format === "openrlhf-critic") {
    const pairs = await store.sweet.pairs(runId, "trajectory");
    // As the pairs were made (`colbench pairs --with-ground-truth`), unless the export says otherwise.
    const withTruth = options.groundTruth ?? Boolean((pairs[0]?.params as { groundTruth?: boolean } | null)?.groundTruth);
    const sides = await store.sweet.episodeSides([...new Set(pairs.flatMap((p) => [p.chosenId, p.rejectedId]))]);
    for (const p of pairs) {
      const chosen = sides.get(p.chosenId)!;
      const rejected = sides.get(p.rejectedId)!;
      const side = (s: typeof chosen) => ({ input: promptText(template, s.input), output: s.output });
      yield criticPairLine(chosen.benchmark, withTruth ? chosen.groundTruth : null, side(chosen), side(rejected));
    }
    return;
  }
  const pairs = await store.sweet.pairs(runId, "turn");
  const candidates = await store.sweet.byId([...new Set(pairs.flatMap((p) => [p.chosenId, p.rejectedId]))]);
  for (const p of pairs) {
    const chosen = candidates.get(p.chosenId)!;
    const rejected = candidates.get(p.rejectedId)!;
    if (format === "trl-dpo") yield trlDpoLine(messagesOf(chosen.prompt, p.chosenId).map((m) => ({ role: m.role, content: typeof m.content === "string" ? m.content : JSON.stringify(m.content) })), chosen.text, rejected.text);
    else yield policyPairLine(promptText(template, chosen.prompt), chosen.text, rejected.text, template.endOfTurn, options.withPrompt ?? false);
  }
}
