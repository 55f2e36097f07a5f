import type { OpenAICompatibleClient } from "../models/openai-client";
import type { JobFence } from "../store/workers";
import type { ChatMessage } from "../models/types";
import type { Store } from "../store";
import type { CandidateScore } from "../store/sweet";
import { promptText, type ChatTemplate } from "./chat-template";
import { advantage } from "./critic";
import { criticPairLine, policyPairLine, trlDpoLine } from "./exports";
import { trajectoryPairs } from "./trajectory-pairs";
import { scoreTurn, type ContinuationScorer, type PromptScorer } from "./score-turn";
import { criticServerScore, policyOwnStats } from "./server-turn-score";
import { drawTurnPairs } from "./turn-pairs";
import { rankSettingsForRun } from "./run-template";
import { SWEET_DEFAULTS } from "./defaults";
import { modelLineage, recordStep, type StepVia } from "./lineage";

// The SWEET-RL steps over a run in the store. Each can be run again: it skips what is done
// (candidates, scores) or replaces its output whole (pairs), so a rerun after a crash completes
// the work and a rerun after success adds nothing. A model server's answer that does not cover what
// was asked stops the step (lib/models/prompt-span.ts): nothing is stored for that state. Every
// start that makes something records what made it (lib/sweet/lineage.ts): a sampling or ranking
// before it stores (a crash leaves rows that the record names), a pair set with the set it replaced.

export type Progress = (done: number, total: number) => void;

/**
 * Works through `items` with at most `concurrency` at once; after an abort, or after one item
 * failed, no new item starts (the failure is what the step ends with).
 */
async function eachConcurrently<T>(
  items: T[],
  concurrency: number,
  signal: AbortSignal | undefined,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      signal?.throwIfAborted();
      try {
        await work(items[next++]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const results = await Promise.allSettled(
    Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker),
  );
  const rejected = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (rejected) throw rejected.reason;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * Trajectory pairs of a run by the benchmark's rule, stored (replacing earlier ones). Whether the
 * critic's training text carries the final answer is kept with them for the export.
 */
export async function makeTrajectoryPairs(
  store: Store,
  runId: number,
  options: { groundTruth?: boolean; via?: StepVia } = {},
): Promise<{ pairs: number; tasks: number }> {
  const run = await store.runs.find(runId);
  if (!run) throw new Error(`no run ${runId}`);
  const samples = await store.sweet.samples(runId);
  const pairs = trajectoryPairs(
    run.benchmark,
    samples.map((s) => ({ task: s.taskId, sample: s.sample, reward: s.reward, id: s.episodeId })),
  );
  const params = { rule: `${run.benchmark}-best-of-k`, groundTruth: options.groundTruth ?? false };
  const stored = await store.sweet.replacePairs(
    runId,
    "trajectory",
    "rule",
    pairs.map((p) => ({ chosenId: p.chosen, rejectedId: p.rejected })),
    params,
  );
  await recordStep(store, runId, "pairs", { via: options.via ?? "cli", ...params });
  return { pairs: stored, tasks: new Set(pairs.map((p) => p.task)).size };
}

/**
 * One state's candidates (a queued job's whole work, `lib/queue`): the turn's own output as 0
 * (scored by the policy, for the replay and step-level rewards; a candidate only with
 * `--include-own`), then N samples: from a prompt string (an imported file in the published
 * layout) through the completions endpoint, as the published sampler samples it; from stored chat
 * messages through chat completions. Each records which. Nothing is stored unless all are whole.
 */
export async function sampleState(
  store: Store,
  policy: OpenAICompatibleClient,
  state: { turnId: number; prompt: unknown; output: string },
  options: { n: number; template: ChatTemplate; temperature?: number; maxTokens?: number; fence?: JobFence },
): Promise<number> {
  const sampling = {
    temperature: options.temperature ?? SWEET_DEFAULTS.temperature,
    maxTokens: options.maxTokens ?? SWEET_DEFAULTS.maxTokens,
  };
  const text = typeof state.prompt === "string";
  const input = promptText(options.template, state.prompt);
  const [ownStats, samples] = await Promise.all([
    policyOwnStats(policy, options.template, input, state.output),
    text
      ? policy.sampleText(input, options.n, sampling)
      : policy.sample({ messages: state.prompt as ChatMessage[], ...sampling }, options.n),
  ]);
  const via = text ? "completions" : "chat";
  const rows = [
    {
      index: 0,
      text: state.output,
      policyModel: policy.spec.model,
      policyMean: ownStats.mean,
      policySum: ownStats.sum,
      sampledVia: "own",
    },
    ...samples.map((s, i) => {
      const lps = s.logprobs.map((t) => t.logprob);
      return {
        index: i + 1,
        text: s.text,
        policyModel: policy.spec.model,
        policyMean: mean(lps),
        policySum: sum(lps),
        sampledVia: via,
      };
    }),
  ];
  return store.sweet.insertCandidates(state.turnId, rows, options.fence);
}

/** A step that failed before storing anything leaves no record: nothing of the run came from it. */
async function forgetIfEmpty(
  store: Store,
  record: { id: number } | null,
  stored: () => number,
  work: Promise<void>,
): Promise<void> {
  try {
    await work;
  } catch (error) {
    if (record && stored() === 0) await store.sweet.forgetStep(record.id).catch(() => {});
    throw error;
  }
}

type Unranked = Awaited<ReturnType<Store["sweet"]["unranked"]>>[number];

/** Scores one state's candidates with a critic server; throws (storing nothing) when any answer is not whole. */
async function scoreState(
  critic: PromptScorer,
  template: ChatTemplate,
  candidates: Unranked[],
  options: { groundTruth?: boolean; sum?: boolean },
): Promise<CandidateScore[]> {
  const first = candidates[0]!;
  const input = promptText(template, first.prompt);
  return Promise.all(
    candidates.map(async (c) => {
      const score = await criticServerScore(
        critic,
        template,
        { groundTruth: options.groundTruth === false ? null : c.groundTruth, input, text: c.text },
        { sum: options.sum, what: `candidate ${c.index} of turn ${c.turnId}` },
      );
      return {
        id: c.id,
        turnId: c.turnId,
        index: c.index,
        criticScore: score,
        advantage: advantage(score, options.sum ? c.policySum : c.policyMean),
      };
    }),
  );
}

function byTurn(candidates: Unranked[]): Unranked[][] {
  const turns = new Map<number, Unranked[]>();
  for (const c of candidates) turns.set(c.turnId, [...(turns.get(c.turnId) ?? []), c]);
  return [...turns.values()];
}

/**
 * Ranks one state's unranked candidates with a critic server (a queued job's whole work): the same
 * score and advantage as `rankCandidates` gives each, stored together or not at all.
 */
export async function rankState(
  store: Store,
  runId: number,
  turnId: number,
  critic: PromptScorer,
  options: { groundTruth?: boolean; sum?: boolean; template: ChatTemplate; fence?: JobFence },
): Promise<number> {
  const todo = await store.sweet.unranked(runId, turnId);
  if (!todo.length) return 0;
  const scores = await scoreState(critic, options.template, todo, options);
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
  options: {
    n?: number;
    fraction?: number;
    template: ChatTemplate;
    temperature?: number;
    maxTokens?: number;
    onProgress?: Progress;
    signal?: AbortSignal;
    concurrency?: number;
    via?: StepVia;
  },
): Promise<{ states: number; sampled: number; candidates: number }> {
  const n = options.n ?? SWEET_DEFAULTS.n;
  const fraction = options.fraction ?? 1;
  const states = await store.sweet.states(runId, fraction);
  const todo = states.filter((s) => s.candidates < n + 1);
  const record = todo.length
    ? await recordStep(store, runId, "candidates", {
        via: options.via ?? "cli",
        policy: modelLineage(policy.spec),
        template: options.template.recorded.ref,
        n,
        fraction,
        temperature: options.temperature ?? SWEET_DEFAULTS.temperature,
        maxTokens: options.maxTokens ?? SWEET_DEFAULTS.maxTokens,
      })
    : null;
  let done = states.length - todo.length;
  let added = 0;
  options.onProgress?.(done, states.length);
  await forgetIfEmpty(
    store,
    record,
    () => added,
    eachConcurrently(todo, options.concurrency ?? 64, options.signal, async (state) => {
      // Awaited first: `added += await …` would read `added` before the wait and lose the other states' counts.
      const stored = await sampleState(store, policy, state, {
        n,
        template: options.template,
        temperature: options.temperature,
        maxTokens: options.maxTokens,
      });
      added += stored;
      options.onProgress?.(++done, states.length);
    }),
  );
  return { states: states.length, sampled: todo.length, candidates: added };
}

/**
 * The critic scores every candidate not yet scored: its prompt log-probs over the span after the
 * last end-of-turn token (mean, or sum), minus the policy's own; with the task's final answer in
 * front unless `groundTruth` is false. A critic that scores many prompts at once (a model on this
 * machine, lib/gpu) gets a turn's candidates together, and with `policy` the policy's log-probs are
 * recomputed by that model and stored with the scores. A state is stored whole or not at all; the
 * step ends with an error while any candidate of the run is left unscored.
 */
export async function rankCandidates(
  store: Store,
  runId: number,
  critic: PromptScorer,
  options: {
    groundTruth?: boolean;
    sum?: boolean;
    template: ChatTemplate;
    onProgress?: Progress;
    signal?: AbortSignal;
    concurrency?: number;
    policy?: ContinuationScorer;
    via?: StepVia;
    /** Where a critic (and policy) on this machine ran, for the record: "webgpu" or "cpu". */
    device?: string;
  },
): Promise<{ ranked: number }> {
  const template = options.template;
  const todo = await store.sweet.unranked(runId);
  // Recorded (or checked against the record) before anything is scored: a run's advantages are never a mix.
  const settings = await rankSettingsForRun(
    store,
    runId,
    { sum: options.sum, groundTruth: options.groundTruth },
    { record: todo.length > 0 },
  );
  options = { ...options, ...settings };
  // A server's spec has its URL; a model on this machine has only its name.
  const local = !("baseUrl" in critic.spec);
  const record = todo.length
    ? await recordStep(store, runId, "rank", {
        via: options.via ?? "cli",
        critic: modelLineage(critic.spec, local ? (options.device ?? "this machine") : undefined),
        ...(options.policy ? { policy: modelLineage(options.policy.spec, options.device ?? "this machine") } : {}),
        template: template.recorded.ref,
        groundTruth: settings.groundTruth,
        sum: settings.sum,
      })
    : null;
  let done = 0;
  let written = 0;
  options.onProgress?.(0, todo.length);
  // Scores are written in batches, one at a time; a crash loses at most the unwritten ones, which a rerun scores again.
  let batch: CandidateScore[] = [];
  let writing = Promise.resolve();
  const flush = () => {
    const rows = batch;
    batch = [];
    writing = writing.then(async () => {
      await store.sweet.score(critic.spec.model, rows);
      written += rows.length;
    });
    return writing;
  };
  const groundTruthOf = (c: Unranked) => (options.groundTruth === false ? null : c.groundTruth);
  const turns = byTurn(todo);
  const work = async () => {
    if (critic.promptLogprobsBatch || options.policy) {
      if (!critic.promptLogprobsBatch)
        throw new Error("recomputing the policy's log-probs needs a critic on this machine too");
      const batchCritic = critic as PromptScorer & Required<Pick<PromptScorer, "promptLogprobsBatch">>;
      // Two turns at a time: one tokenises while the other runs.
      await eachConcurrently(turns, Math.min(options.concurrency ?? 2, 2), options.signal, async (candidates) => {
        const first = candidates[0]!;
        const scored = await scoreTurn(
          template,
          { prompt: first.prompt, groundTruth: groundTruthOf(first), candidates },
          batchCritic,
          options.policy ?? null,
          { sum: options.sum },
        );
        scored.forEach((s, i) => {
          const c = candidates[i]!;
          batch.push({
            id: c.id,
            turnId: c.turnId,
            index: c.index,
            criticScore: s.criticScore,
            advantage: s.advantage,
            ...(options.policy
              ? { policy: { model: options.policy.spec.model, mean: s.policyMean, sum: s.policySum } }
              : {}),
          });
        });
        if (batch.length >= 256) await flush();
        done += candidates.length;
        options.onProgress?.(done, todo.length);
      }).finally(flush);
    } else {
      // States side by side, each state's candidates together; the client bounds requests in flight.
      await eachConcurrently(
        turns,
        Math.max(1, Math.ceil((options.concurrency ?? 64) / Math.max(1, turns[0]?.length ?? 1))),
        options.signal,
        async (candidates) => {
          // Awaited first: `batch.push(...(await …))` would push into a batch a flush had already taken.
          const scores = await scoreState(critic, template, candidates, options);
          batch.push(...scores);
          if (batch.length >= 256) await flush();
          done += candidates.length;
          options.onProgress?.(done, todo.length);
        },
      ).finally(flush);
    }
    await writing;
  };
  await forgetIfEmpty(store, record, () => written, work());
  const left = (await store.sweet.unranked(runId)).length;
  if (left) throw new Error(`${left} candidate(s) of the run are still unscored after ranking`);
  return { ranked: todo.length };
}

/**
 * Which candidates a state's pairs are drawn from: the published pool is the N fresh samples
 * (`samples`); `samples+own` adds the turn's own output (candidate 0), which is always scored for
 * the replay and the step-level rewards but is a candidate only when asked for.
 */
export type CandidatePool = "samples" | "samples+own";

/**
 * The order states are drawn in: the order of the official export the published scripts would
 * read (`task`: task by task, each task's samples together; `best-of-k`: the benchmark's k blocks
 * of the task list), turns in dialogue order.
 */
export type StateOrder = "task" | "best-of-k";

/**
 * Turn pairs drawn from the ranked candidates (replacing earlier ones), as the published
 * `generate_random_pairs_from_ranks.py` draws them from the file the published scripts would have
 * made of this run: same seed, same pairs, same order.
 */
export async function makeTurnPairs(
  store: Store,
  runId: number,
  options: { pairsPerState?: number; seed?: number; pool?: CandidatePool; order?: StateOrder; via?: StepVia } = {},
): Promise<{ states: number; pairs: number }> {
  const pool = options.pool ?? SWEET_DEFAULTS.pool;
  const order = options.order ?? SWEET_DEFAULTS.order;
  const ranked = (await store.sweet.ranked(runId)).filter((c) => pool === "samples+own" || c.index > 0);
  ranked.sort(
    (a, b) =>
      (order === "task" ? a.taskId - b.taskId || a.sample - b.sample : a.sample - b.sample || a.taskId - b.taskId) ||
      a.turnIndex - b.turnIndex ||
      a.index - b.index,
  );
  const byTurn = new Map<number, Array<{ id: number; advantage: number }>>();
  for (const c of ranked) {
    const list = byTurn.get(c.turnId) ?? [];
    list.push({ id: c.id, advantage: c.advantage! });
    byTurn.set(c.turnId, list);
  }
  const params = {
    pairsPerState: options.pairsPerState ?? SWEET_DEFAULTS.pairsPerState,
    seed: options.seed ?? SWEET_DEFAULTS.seed,
    pool,
    order,
  };
  const pairs = drawTurnPairs(
    [...byTurn].map(([state, candidates]) => ({ state, candidates })),
    params,
  );
  const stored = await store.sweet.replacePairs(
    runId,
    "turn",
    "critic",
    pairs.map((p) => ({ chosenId: p.chosen, rejectedId: p.rejected })),
    params,
  );
  // The candidates and ranking it drew from: their latest records now.
  const steps = await store.sweet.steps(runId, 1);
  const latest = (step: string) => steps.find((s) => s.step === step)?.id;
  await recordStep(store, runId, "turn-pairs", {
    via: options.via ?? "cli",
    ...params,
    from: { candidates: latest("candidates"), rank: latest("rank") },
  });
  return { states: byTurn.size, pairs: stored };
}

/**
 * openrlhf-critic: trajectory pairs as one string a side, for both benchmarks (OpenRLHF's
 * RewardDataset reads strings); published-frontend-critic: the published frontend shape, sides as
 * `{input, output}`; openrlhf-policy: turn pairs; trl-dpo: turn pairs in TRL's standard (string)
 * preference format, whose texts are the OpenRLHF policy file's.
 */
export type TrainingFormat = "openrlhf-critic" | "published-frontend-critic" | "openrlhf-policy" | "trl-dpo";
export const TRAINING_FORMATS: readonly TrainingFormat[] = [
  "openrlhf-critic",
  "published-frontend-critic",
  "openrlhf-policy",
  "trl-dpo",
];

/** The lines of a training file, from the pairs the steps above stored, written in the run's chat template. */
export async function* trainingLines(
  store: Store,
  runId: number,
  format: TrainingFormat,
  options: { groundTruth?: boolean; template: ChatTemplate; withPrompt?: boolean },
): AsyncGenerator<Record<string, unknown>> {
  const template = options.template;
  if (format === "openrlhf-critic" || format === "published-frontend-critic") {
    const pairs = await store.sweet.pairs(runId, "trajectory");
    // As the pairs were made (`colbench pairs --with-ground-truth`), unless the export says otherwise.
    const withTruth =
      options.groundTruth ?? Boolean((pairs[0]?.params as { groundTruth?: boolean } | null)?.groundTruth);
    const sides = await store.sweet.episodeSides([...new Set(pairs.flatMap((p) => [p.chosenId, p.rejectedId]))]);
    for (const p of pairs) {
      const chosen = sides.get(p.chosenId)!;
      const rejected = sides.get(p.rejectedId)!;
      const side = (s: typeof chosen) => ({ input: promptText(template, s.input), output: s.output });
      yield criticPairLine(
        format === "openrlhf-critic" ? "strings" : "objects",
        withTruth ? chosen.groundTruth : null,
        side(chosen),
        side(rejected),
      );
    }
    return;
  }
  const pairs = await store.sweet.pairs(runId, "turn");
  const candidates = await store.sweet.byId([...new Set(pairs.flatMap((p) => [p.chosenId, p.rejectedId]))]);
  for (const p of pairs) {
    const chosen = candidates.get(p.chosenId)!;
    const rejected = candidates.get(p.rejectedId)!;
    const input = promptText(template, chosen.prompt);
    if (format === "trl-dpo") yield trlDpoLine(input, chosen.text, rejected.text, template.endOfTurn);
    else yield policyPairLine(input, chosen.text, rejected.text, template.endOfTurn, options.withPrompt ?? false);
  }
}
