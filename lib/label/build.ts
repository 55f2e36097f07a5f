import { benchmarks, type Benchmark } from "../benchmarks";
import type { Store } from "../store";
import type { CandidatePool } from "../sweet/pipeline";
import type { Choice, NewQueueItem, QueueRow } from "../store/queues";
import { pairKey } from "../store/queue-items";
import { Rng } from "./rng";
import { parseLabelSchema, storedSchema } from "./schema";

// Making a queue: its pairs from a source, sides put in a seeded random order (so "a" is not
// always the rule's pick), gold pairs set aside, members by name.

export type QueueSource =
  /** A run's stored SWEET-RL pairs (trajectory pairs from the rule, turn pairs from the critic). */
  | { from: "pairs"; run: string; kind: "trajectory" | "turn" }
  /**
   * A run's critic-ranked candidates: each agent turn's best against its worst, from the pool turn
   * pairs are drawn from (the N samples; the turn's own output too with "samples+own").
   */
  | { from: "candidates"; run: string; pool?: CandidatePool }
  /** Two runs on the same tasks: each task's first finished sample of one against the other's. */
  | { from: "runs"; a: string; b: string };

export interface QueueSpec {
  name: string;
  source: QueueSource;
  instructions?: string;
  overlap: number;
  /** How many gold pairs (known answer) to set aside, and how often to mix one in. */
  gold?: number;
  goldRate?: number;
  /** The reward gap that makes a trajectory pair's answer known (gold). */
  goldGap?: number;
  /** Gold that acts: pause a member below this accuracy on gold pairs, after goldMinimum of them (lib/label/gold.ts). */
  goldThreshold?: number;
  goldMinimum?: number;
  showsHidden?: boolean;
  /** Training: after a gold pair is labelled, the person sees whether it matched and why (lib/label/training.ts). */
  trainingMode?: boolean;
  /** Members see no automatic scores (per-test pass/fail, reward, similarity) on its pairs. */
  hidesScores?: boolean;
  /** The most non-gold pairs one person labels (a person at it is handed no more); absent: no cap. */
  quota?: number | null;
  /** What a label holds beyond the choice (graded, criteria, required reasons); checked here. */
  labelSchema?: unknown;
  members?: string[];
  limit?: number;
  seed?: number;
}

export interface CreatedQueue {
  id: number;
  name: string;
  kind: "trajectory" | "turn";
  items: number;
  gold: number;
  slots: number;
  members: number;
}

const fail = (field: string, message: string): never => {
  throw new Error(`${field}: ${message}`);
};

const better = (x: number | null | undefined, y: number | null | undefined): Choice | null => {
  if (typeof x !== "number" || typeof y !== "number" || !Number.isFinite(x) || !Number.isFinite(y)) return null;
  return x > y ? "a" : x < y ? "b" : "tie";
};

function goldRule(spec: QueueSpec): { goldThreshold: number | null; goldMinimum: number } {
  const threshold = spec.goldThreshold ?? null;
  const minimum = spec.goldMinimum ?? 3;
  if (threshold !== null && !(threshold > 0 && threshold <= 1))
    fail("goldThreshold", `an accuracy above 0 and at most 1 (got ${threshold})`);
  if (!Number.isInteger(minimum) || minimum < 1)
    fail("goldMinimum", `a whole number of gold labels, at least 1 (got ${minimum})`);
  if (threshold !== null && !(spec.gold ?? 0)) fail("goldThreshold", "needs gold pairs (--gold N)");
  return { goldThreshold: threshold, goldMinimum: minimum };
}

/** A per-person quota as asked for: a whole number of pairs, at least 1; null for none. */
export function quotaOf(quota: number | null | undefined): number | null {
  if (quota === null || quota === undefined) return null;
  if (!Number.isSafeInteger(quota) || quota < 1) fail("quota", `a whole number of pairs, at least 1 (got ${quota})`);
  return quota;
}

async function runOf(store: Store, field: string, nameOrId: string) {
  const run = await store.runs.find(nameOrId);
  if (!run) fail(field, `no run named "${nameOrId}" (see \`colbench runs\`)`);
  return run!;
}

/** A pair whose preferred side is `chosen`, with its sides in random order. */
function sided(
  rng: Rng,
  chosen: { episode?: number; candidate?: number; run: number; value?: number | null },
  rejected: typeof chosen,
  base: { taskId: number; params: Record<string, unknown> },
): NewQueueItem {
  const flip = rng.coin();
  const [a, b] = flip ? [rejected, chosen] : [chosen, rejected];
  return {
    aRunId: a.run,
    bRunId: b.run,
    aEpisodeId: a.episode,
    bEpisodeId: b.episode,
    aCandidateId: a.candidate,
    bCandidateId: b.candidate,
    taskId: base.taskId,
    sourceChoice: flip ? "b" : "a",
    gold: null,
    params: { ...base.params, values: [a.value ?? null, b.value ?? null] },
  };
}

async function itemsOf(
  store: Store,
  source: QueueSource,
  rng: Rng,
): Promise<{ kind: "trajectory" | "turn"; benchmark: Benchmark; items: NewQueueItem[]; runs: string[] }> {
  if (source.from === "runs") {
    const [a, b] = [await runOf(store, "source.a", source.a), await runOf(store, "source.b", source.b)];
    if (a.id === b.id) fail("source.b", "pick two different runs");
    if (a.benchmark !== b.benchmark)
      fail(
        "source.b",
        `${a.name} is a ${a.benchmark} run and ${b.name} a ${b.benchmark} run: compare runs of one benchmark`,
      );
    const first = (rows: Awaited<ReturnType<Store["queues"]["doneEpisodes"]>>) => {
      const byTask = new Map<number, (typeof rows)[number]>();
      for (const row of rows) if (!byTask.has(row.taskId)) byTask.set(row.taskId, row);
      return byTask;
    };
    const [ea, eb] = [first(await store.queues.doneEpisodes(a.id)), first(await store.queues.doneEpisodes(b.id))];
    const items: NewQueueItem[] = [];
    for (const [taskId, x] of ea) {
      const y = eb.get(taskId);
      if (!y) continue;
      // Sides of run-against-run pairs stay in run order (a is the first run); people see them in random order.
      items.push({
        aRunId: a.id,
        bRunId: b.id,
        aEpisodeId: x.id,
        bEpisodeId: y.id,
        taskId,
        sourceChoice: better(x.reward, y.reward),
        gold: null,
        params: { values: [x.reward, y.reward] },
      });
    }
    if (!items.length) fail("source", `${a.name} and ${b.name} have no task that both finished`);
    return { kind: "trajectory", benchmark: a.benchmark, items, runs: [a.name, b.name] };
  }
  const run = await runOf(store, "source.run", source.run);
  if (source.from === "pairs" && source.kind === "trajectory") {
    const pairs = await store.sweet.pairs(run.id, "trajectory");
    if (!pairs.length)
      fail("source", `run ${run.name} has no trajectory pairs: make them with \`colbench pairs ${run.name}\``);
    const refs = await store.queues.episodeRefs([...new Set(pairs.flatMap((p) => [p.chosenId, p.rejectedId]))]);
    const items = pairs.map((p) => {
      const [c, r] = [refs.get(p.chosenId)!, refs.get(p.rejectedId)!];
      return sided(
        rng,
        { episode: c.id, run: run.id, value: c.reward },
        { episode: r.id, run: run.id, value: r.reward },
        { taskId: c.taskId, params: { pair: p.ordinal } },
      );
    });
    return { kind: "trajectory", benchmark: run.benchmark, items, runs: [run.name] };
  }
  let turnPairs: Array<{ chosenId: number; rejectedId: number; ordinal?: number }>;
  if (source.from === "pairs") {
    turnPairs = await store.sweet.pairs(run.id, "turn");
    if (!turnPairs.length)
      fail("source", `run ${run.name} has no turn pairs: draw them with \`colbench turn-pairs ${run.name}\``);
  } else {
    const pool = source.pool ?? "samples";
    const ranked = (await store.sweet.ranked(run.id)).filter((c) => pool === "samples+own" || c.index > 0);
    const byTurn = new Map<number, typeof ranked>();
    for (const c of ranked) byTurn.set(c.turnId, [...(byTurn.get(c.turnId) ?? []), c]);
    turnPairs = [];
    for (const list of byTurn.values()) {
      const sorted = [...list].sort((x, y) => y.advantage! - x.advantage! || x.index - y.index);
      const [best, worst] = [sorted[0]!, sorted[sorted.length - 1]!];
      if (sorted.length >= 2 && best.advantage! > worst.advantage!)
        turnPairs.push({ chosenId: best.id, rejectedId: worst.id });
    }
    if (!turnPairs.length)
      fail("source", `run ${run.name} has no ranked candidates: \`colbench candidates\` then \`colbench rank\` first`);
  }
  const refs = await store.queues.candidateRefs([...new Set(turnPairs.flatMap((p) => [p.chosenId, p.rejectedId]))]);
  const items = turnPairs.map((p) => {
    const [c, r] = [refs.get(p.chosenId)!, refs.get(p.rejectedId)!];
    const params: Record<string, unknown> = { turn: c.turnId };
    if (p.ordinal !== undefined) params.pair = p.ordinal;
    return sided(
      rng,
      { candidate: c.id, run: run.id, value: c.advantage },
      { candidate: r.id, run: run.id, value: r.advantage },
      { taskId: c.taskId, params },
    );
  });
  return { kind: "turn", benchmark: run.benchmark, items, runs: [run.name] };
}

/** Validates a queue's settings, makes its pairs from the source, and stores it. */
export async function createQueue(store: Store, spec: QueueSpec): Promise<CreatedQueue> {
  const name = spec.name.trim();
  if (!/^[\w.@ -]{1,80}$/.test(name)) fail("name", `1-80 letters, digits, spaces or . _ @ - (got "${spec.name}")`);
  if (!Number.isInteger(spec.overlap) || spec.overlap < 1 || spec.overlap > 20)
    fail("overlap", `a whole number of labels per pair from 1 to 20 (got ${spec.overlap})`);
  const goldRate = spec.goldRate ?? (spec.gold ? 0.1 : 0);
  if (!(goldRate >= 0 && goldRate <= 1)) fail("goldRate", `a share from 0 to 1 (got ${spec.goldRate})`);
  const goldCount = spec.gold ?? 0;
  if (!Number.isInteger(goldCount) || goldCount < 0) fail("gold", `a whole number of gold pairs (got ${spec.gold})`);
  if (spec.limit !== undefined && (!Number.isInteger(spec.limit) || spec.limit < 1))
    fail("limit", `a positive whole number (got ${spec.limit})`);
  const users = await store.users.list();
  const memberIds = (spec.members ?? []).map((member) => {
    const user = users.find((u) => u.name === member);
    if (!user)
      fail("members", `no user named "${member}" (add one with \`colbench users add ${member} --role annotator\`)`);
    return user!.id;
  });

  const rng = new Rng(spec.seed ?? 42);
  const made = await itemsOf(store, spec.source, rng);
  let items = rng.shuffle(made.items);
  if (spec.limit) items = items.slice(0, spec.limit);
  if (goldCount) markGold(items, made, goldCount, spec.goldGap ?? 0.5);
  const stored = await store.queues.insert({
    name,
    kind: made.kind,
    benchmark: made.benchmark,
    instructions: spec.instructions ?? "",
    overlap: spec.overlap,
    goldRate: goldCount ? goldRate : 0,
    showsHidden: spec.showsHidden ?? false,
    hidesScores: spec.hidesScores ?? false,
    trainingMode: spec.trainingMode ?? false,
    ...goldRule(spec),
    quota: quotaOf(spec.quota),
    labelSchema: storedSchema(parseLabelSchema(spec.labelSchema ?? {})),
    source: {
      ...spec.source,
      runs: made.runs,
      seed: spec.seed ?? 42,
      ...(goldCount ? { goldGap: spec.goldGap ?? 0.5 } : {}),
    },
    memberIds,
    items,
  });
  return {
    id: stored.id,
    name,
    kind: made.kind,
    items: stored.items,
    gold: stored.gold,
    slots: stored.slots,
    members: memberIds.length,
  };
}

/**
 * Sets `count` of the items aside as gold: trajectory pairs whose rewards are `gap` or more apart,
 * the better side the known answer, its reason the two rewards as the benchmark says them.
 */
function markGold(
  items: NewQueueItem[],
  made: { kind: "trajectory" | "turn"; benchmark: Benchmark },
  count: number,
  gap: number,
): void {
  if (made.kind !== "trajectory")
    fail(
      "gold",
      "gold pairs need a known answer: only trajectory pairs, whose benchmark rewards tell which side is better, have one",
    );
  const known = items.filter((item) => {
    const [x, y] = (item.params?.values as [number | null, number | null] | undefined) ?? [null, null];
    return typeof x === "number" && typeof y === "number" && Math.abs(x - y) >= gap;
  });
  if (known.length < count)
    fail(
      "gold",
      `only ${known.length} pairs have rewards ${gap} or more apart; ask for at most that many gold pairs (or a smaller --gold-gap)`,
    );
  const reward = benchmarks[made.benchmark].reward;
  for (const item of known.slice(0, count)) {
    const [x, y] = item.params!.values as [number, number];
    item.gold = x > y ? "a" : "b";
    item.goldReason = `The better answer: ${reward.sentence(Math.max(x, y))}. The other: ${reward.sentence(Math.min(x, y))}.`;
  }
}

export interface MorePairs {
  source: QueueSource;
  /** Keep at most this many of the new pairs. */
  limit?: number;
  seed?: number;
  /** Gold pairs among the new ones (trajectory pairs with rewards at least goldGap apart). */
  gold?: number;
  goldGap?: number;
}

/**
 * Adds a source's pairs to a queue that exists (as `createQueue` makes them): same kind and
 * benchmark only, pairs the queue holds already left out, each new pair with the queue's overlap.
 */
export async function addPairs(
  store: Store,
  queue: QueueRow,
  spec: MorePairs,
): Promise<{ queue: string; added: number; gold: number; slots: number; already: number }> {
  if (spec.limit !== undefined && (!Number.isInteger(spec.limit) || spec.limit < 1))
    fail("limit", `a positive whole number (got ${spec.limit})`);
  const goldCount = spec.gold ?? 0;
  if (!Number.isInteger(goldCount) || goldCount < 0) fail("gold", `a whole number of gold pairs (got ${spec.gold})`);
  if (goldCount && queue.goldRate === 0)
    fail("gold", `queue ${queue.name} mixes in no gold pairs (its gold rate is 0): they would never be shown`);
  const rng = new Rng(spec.seed ?? 42);
  const made = await itemsOf(store, spec.source, rng);
  if (made.kind !== queue.kind)
    fail("source", `these are ${made.kind} pairs; queue ${queue.name} holds ${queue.kind} pairs`);
  if (made.benchmark !== queue.benchmark)
    fail("source", `these are ${made.benchmark} pairs; queue ${queue.name} holds ${queue.benchmark} pairs`);
  const held = await store.queues.pairKeys(queue.id);
  const fresh = made.items.filter((item) => !held.has(pairKey(item)));
  let items = rng.shuffle(fresh);
  if (spec.limit) items = items.slice(0, spec.limit);
  if (goldCount) markGold(items, made, goldCount, spec.goldGap ?? 0.5);
  const already = made.items.length - fresh.length;
  if (!items.length) fail("source", `every one of its ${made.items.length} pairs is in queue ${queue.name} already`);
  const stored = await store.queues.append(queue.id, items);
  return { queue: queue.name, added: stored.items, gold: stored.gold, slots: stored.slots, already };
}
