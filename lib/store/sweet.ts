import type { Prisma, PrismaClient } from "../db/generated/client";
import type { Benchmark } from "../benchmarks";
import { storedBenchmark } from "./benchmark-names";
import { fencedByJob, type JobFence } from "./workers";

// SWEET-RL's data: the samples pairs are made from, agent turns as states, their candidates and
// critic scores, and the pairs. Steps are resumable: candidates are keyed (turn, index), scores
// are written once, and a pair set is replaced whole.

export interface RunSample {
  episodeId: number;
  taskId: number;
  sample: number;
  reward: number;
}

/** A run's finished episodes with their rewards. */
export async function runSamples(prisma: PrismaClient, runId: number): Promise<RunSample[]> {
  const rows = await prisma.episode.findMany({
    where: { runId, status: "done" },
    orderBy: [{ taskId: "asc" }, { sample: "asc" }],
    select: { id: true, taskId: true, sample: true, reward: true },
  });
  return rows.map((r) => ({ episodeId: r.id, taskId: r.taskId, sample: r.sample, reward: r.reward ?? Number.NaN }));
}

export interface EpisodeSide {
  episodeId: number;
  benchmark: Benchmark;
  groundTruth: string;
  /** The last agent turn's prompt as stored (chat messages, or text from an imported file) and raw output. */
  input: unknown;
  output: string;
}

/** What a trajectory pair's side is made of, per episode. */
export async function episodeSides(prisma: PrismaClient, episodeIds: number[]): Promise<Map<number, EpisodeSide>> {
  const rows = await prisma.episode.findMany({
    where: { id: { in: episodeIds } },
    select: {
      id: true,
      task: { select: { benchmark: true, groundTruth: true } },
      turns: {
        where: { role: "agent" },
        orderBy: { index: "desc" },
        take: 1,
        select: { prompt: true, rawOutput: true, content: true },
      },
    },
  });
  return new Map(
    rows.map((r) => {
      const last = r.turns[0];
      return [
        r.id,
        {
          episodeId: r.id,
          benchmark: storedBenchmark(r.task.benchmark, `episode ${r.id}'s task`),
          groundTruth: r.task.groundTruth,
          input: last?.prompt ?? "",
          output: last?.rawOutput ?? last?.content ?? "",
        },
      ];
    }),
  );
}

export interface PairRow {
  ordinal: number;
  chosenId: number;
  rejectedId: number;
  params: unknown;
}

/** Replaces a run's pairs of one kind and source with a new set, in one transaction (running a step again adds nothing). */
/**
 * Replaces the run's pairs of one kind and source with `pairs`, in their order, in one statement: the
 * pairs at ordinals 0..n-1 are written over (or added), those past n deleted. One statement is atomic
 * without an interactive transaction, whose 5 s default expired under a busy machine's 512 pairs.
 */
export async function replacePairs(
  prisma: PrismaClient,
  runId: number,
  kind: "trajectory" | "turn",
  source: "rule" | "critic" | "human",
  pairs: Array<{ chosenId: number; rejectedId: number }>,
  params: Record<string, unknown>,
): Promise<number> {
  const ordinals = pairs.map((_, ordinal) => ordinal);
  const chosen = pairs.map((p) => p.chosenId);
  const rejected = pairs.map((p) => p.rejectedId);
  // The two parts touch disjoint ordinals, so running together they never meet on the unique key.
  await prisma.$executeRaw`
    WITH written AS (
      INSERT INTO "Pair" ("runId", "kind", "source", "ordinal", "chosenId", "rejectedId", "params")
      SELECT ${runId}, ${kind}::"PairKind", ${source}::"PairSource", v.ordinal, v.chosen, v.rejected, ${JSON.stringify(params)}::jsonb
        FROM unnest(${ordinals}::int[], ${chosen}::int[], ${rejected}::int[]) AS v(ordinal, chosen, rejected)
      ON CONFLICT ("runId", "kind", "source", "ordinal") DO UPDATE
        SET "chosenId" = EXCLUDED."chosenId", "rejectedId" = EXCLUDED."rejectedId", "params" = EXCLUDED."params", "createdAt" = CURRENT_TIMESTAMP
      RETURNING 1
    ), dropped AS (
      DELETE FROM "Pair" WHERE "runId" = ${runId} AND "kind" = ${kind}::"PairKind" AND "source" = ${source}::"PairSource" AND "ordinal" >= ${pairs.length}
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM written), (SELECT count(*) FROM dropped)`;
  return pairs.length;
}

export async function pairsOf(prisma: PrismaClient, runId: number, kind: "trajectory" | "turn"): Promise<PairRow[]> {
  return prisma.pair.findMany({
    where: { runId, kind },
    orderBy: [{ source: "asc" }, { ordinal: "asc" }],
    select: { ordinal: true, chosenId: true, rejectedId: true, params: true },
  });
}

export interface AgentState {
  turnId: number;
  episodeId: number;
  index: number;
  prompt: unknown;
  output: string;
  reward: number | null;
  groundTruth: string;
  /** Candidates stored so far (index 0, the turn's own output, included). */
  candidates: number;
}

/**
 * Every agent turn of the run's finished episodes: SWEET-RL's states. `fraction` keeps the first
 * part of the episodes (in id order), as the published sampler's data fraction does.
 */
export async function agentStates(
  prisma: PrismaClient,
  runId: number,
  fraction = 1,
  turnId?: number,
): Promise<AgentState[]> {
  // One state (a queued job's): its turn, if it is an agent turn of a finished episode of the run.
  const where =
    turnId === undefined
      ? { episodeId: { in: await keptEpisodes(prisma, runId, fraction) }, role: "agent" as const }
      : { id: turnId, role: "agent" as const, episode: { runId, status: "done" as const } };
  const turns = await prisma.turn.findMany({
    where,
    orderBy: [{ episodeId: "asc" }, { index: "asc" }],
    select: {
      id: true,
      episodeId: true,
      index: true,
      prompt: true,
      rawOutput: true,
      content: true,
      episode: { select: { reward: true, task: { select: { groundTruth: true } } } },
      _count: { select: { candidates: true } },
    },
  });
  return turns.map((t) => ({
    turnId: t.id,
    episodeId: t.episodeId,
    index: t.index,
    prompt: t.prompt,
    output: t.rawOutput ?? t.content,
    reward: t.episode.reward,
    groundTruth: t.episode.task.groundTruth,
    candidates: t._count.candidates,
  }));
}

async function keptEpisodes(prisma: PrismaClient, runId: number, fraction: number): Promise<number[]> {
  const episodes = await prisma.episode.findMany({
    where: { runId, status: "done" },
    orderBy: { id: "asc" },
    select: { id: true },
  });
  return episodes.slice(0, Math.floor(episodes.length * fraction)).map((e) => e.id);
}

export interface NewCandidate {
  index: number;
  text: string;
  policyModel: string;
  policyMean: number;
  policySum: number;
  /** "own", "chat" or "completions": how it was made. */
  sampledVia?: string;
}

/**
 * Stores a turn's candidates; ones already there (same turn and index) are kept as they are. With
 * `fence` (a queued job's), only while that job is still the caller's (else JobLost, nothing stored).
 */
export async function insertCandidates(
  prisma: PrismaClient,
  turnId: number,
  candidates: NewCandidate[],
  fence?: JobFence,
): Promise<number> {
  const insert = async (db: Prisma.TransactionClient) =>
    (await db.candidate.createMany({ data: candidates.map((c) => ({ ...c, turnId })), skipDuplicates: true })).count;
  return fence ? fencedByJob(prisma, fence, insert) : insert(prisma);
}

export interface CandidateToRank {
  id: number;
  turnId: number;
  index: number;
  text: string;
  policyMean: number;
  policySum: number;
  prompt: unknown;
  groundTruth: string;
}

/** Candidates of a run that no critic has scored yet. */
export async function unrankedCandidates(
  prisma: PrismaClient,
  runId: number,
  turnId?: number,
): Promise<CandidateToRank[]> {
  const rows = await prisma.candidate.findMany({
    where: { criticScore: null, turn: { episode: { runId } }, ...(turnId === undefined ? {} : { turnId }) },
    orderBy: [{ turnId: "asc" }, { index: "asc" }],
    select: {
      id: true,
      turnId: true,
      index: true,
      text: true,
      policyMean: true,
      policySum: true,
      turn: { select: { prompt: true, episode: { select: { task: { select: { groundTruth: true } } } } } },
    },
  });
  return rows.map((r) => ({
    id: r.id,
    turnId: r.turnId,
    index: r.index,
    text: r.text,
    policyMean: r.policyMean,
    policySum: r.policySum,
    prompt: r.turn.prompt,
    groundTruth: r.turn.episode.task.groundTruth,
  }));
}

export interface CandidateScore {
  id: number;
  turnId: number;
  index: number;
  criticScore: number;
  advantage: number;
  /** The policy's log-probs when they were recomputed with the score (a policy on this machine). */
  policy?: { model: string; mean: number; sum: number };
}

/**
 * Critic scores and advantages in one statement (candidates, and for index 0 — the turn's own output —
 * the turn's advantage; recomputed policy log-probs where given): per row a Prisma update costs about
 * a millisecond of planning, more than the ranking's own work per candidate, and one statement is
 * atomic without a transaction whose 5 s default a slow database outlasts.
 */
export async function scoreCandidates(
  prisma: PrismaClient,
  criticModel: string,
  scores: CandidateScore[],
  fence?: JobFence,
): Promise<void> {
  if (!scores.length) return;
  const finite = (x: number) => (Number.isFinite(x) ? x : null);
  const own = scores.filter((s) => s.index === 0);
  const write = (db: Prisma.TransactionClient) => db.$executeRaw`
    WITH v AS (
      SELECT * FROM unnest(${scores.map((s) => s.id)}::int[], ${scores.map((s) => finite(s.criticScore))}::float8[], ${scores.map((s) => finite(s.advantage))}::float8[],
                           ${scores.map((s) => s.policy?.model ?? null)}::text[], ${scores.map((s) => s.policy?.mean ?? null)}::float8[], ${scores.map((s) => s.policy?.sum ?? null)}::float8[])
        AS v(id, score, adv, model, mean, sum)
    ), candidates AS (
      UPDATE "Candidate" AS c
         SET "criticModel" = ${criticModel}, "criticScore" = v.score, "advantage" = v.adv,
             "policyModel" = COALESCE(v.model, c."policyModel"), "policyMean" = CASE WHEN v.model IS NULL THEN c."policyMean" ELSE v.mean END,
             "policySum" = CASE WHEN v.model IS NULL THEN c."policySum" ELSE v.sum END
        FROM v WHERE c."id" = v.id
      RETURNING 1
    ), turns AS (
      UPDATE "Turn" AS t SET "advantage" = o.adv
        FROM unnest(${own.map((s) => s.turnId)}::int[], ${own.map((s) => finite(s.advantage))}::float8[]) AS o(id, adv)
       WHERE t."id" = o.id
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM candidates), (SELECT count(*) FROM turns)`;
  // A queued job's scores go in only while the job is still the caller's (else JobLost, nothing written).
  if (fence) await fencedByJob(prisma, fence, write);
  else await write(prisma);
}

export interface RankedCandidate {
  id: number;
  turnId: number;
  index: number;
  text: string;
  policyMean: number;
  criticScore: number | null;
  advantage: number | null;
}

/** Where a ranked candidate's state sits in the run: its episode's task and sample, the turn's place. */
export interface RankedCandidateInRun extends RankedCandidate {
  taskId: number;
  sample: number;
  turnIndex: number;
}

/** A run's scored candidates, turn by turn. */
export async function rankedCandidates(prisma: PrismaClient, runId: number): Promise<RankedCandidateInRun[]> {
  const rows = await prisma.candidate.findMany({
    where: { turn: { episode: { runId } }, advantage: { not: null } },
    orderBy: [{ turnId: "asc" }, { index: "asc" }],
    select: {
      id: true,
      turnId: true,
      index: true,
      text: true,
      policyMean: true,
      criticScore: true,
      advantage: true,
      turn: { select: { index: true, episode: { select: { taskId: true, sample: true } } } },
    },
  });
  return rows.map(({ turn, ...c }) => ({
    ...c,
    taskId: turn.episode.taskId,
    sample: turn.episode.sample,
    turnIndex: turn.index,
  }));
}

/** One turn's candidates, best advantage first (the replay shows them). */
export async function candidatesOfTurn(prisma: PrismaClient, turnId: number): Promise<RankedCandidate[]> {
  const rows = await prisma.candidate.findMany({
    where: { turnId },
    select: { id: true, turnId: true, index: true, text: true, policyMean: true, criticScore: true, advantage: true },
  });
  return rows.sort((a, b) => (b.advantage ?? -Infinity) - (a.advantage ?? -Infinity));
}

/** Candidates by id with their turn's prompt, for writing turn pairs. */
export async function candidatesById(
  prisma: PrismaClient,
  ids: number[],
): Promise<Map<number, { text: string; prompt: unknown }>> {
  const rows = await prisma.candidate.findMany({
    where: { id: { in: ids } },
    select: { id: true, text: true, turn: { select: { prompt: true } } },
  });
  return new Map(rows.map((r) => [r.id, { text: r.text, prompt: r.turn.prompt }]));
}

/** An episode's candidates by agent turn index, best advantage first (unscored last). */
export async function candidatesOfEpisode(
  prisma: PrismaClient,
  episodeId: number,
): Promise<Record<number, RankedCandidate[]>> {
  const rows = await prisma.candidate.findMany({
    where: { turn: { episodeId } },
    select: {
      id: true,
      turnId: true,
      index: true,
      text: true,
      policyMean: true,
      criticScore: true,
      advantage: true,
      turn: { select: { index: true } },
    },
  });
  const byTurn: Record<number, RankedCandidate[]> = {};
  for (const { turn, ...c } of rows) (byTurn[turn.index] ??= []).push(c);
  for (const list of Object.values(byTurn))
    list.sort((a, b) => (b.advantage ?? -Infinity) - (a.advantage ?? -Infinity) || a.index - b.index);
  return byTurn;
}

/**
 * The chat template a run's SWEET-RL strings are written in, as its first step recorded it (kept in
 * the run's config beside what the run was made with), or null.
 */
export async function runTemplate(
  prisma: PrismaClient,
  runId: number,
): Promise<{
  name: string;
  createdAt: Date;
  recorded: Record<string, unknown> | null;
  rank: Record<string, unknown> | null;
} | null> {
  const run = await prisma.run.findUnique({
    where: { id: runId },
    select: { name: true, createdAt: true, config: true },
  });
  if (!run) return null;
  const config = run.config as { sweetTemplate?: unknown; sweetRank?: unknown } | null;
  const object = (v: unknown) => (v && typeof v === "object" ? (v as Record<string, unknown>) : null);
  return {
    name: run.name,
    createdAt: run.createdAt,
    recorded: object(config?.sweetTemplate),
    rank: object(config?.sweetRank),
  };
}

/** Records a run's chat template once: the first step's wins, so every later string uses the same. */
export async function recordRunTemplate(
  prisma: PrismaClient,
  runId: number,
  template: Record<string, unknown>,
): Promise<boolean> {
  const changed = await prisma.$executeRaw`
    UPDATE "Run" SET "config" = jsonb_set(coalesce("config", '{}'::jsonb), '{sweetTemplate}', ${JSON.stringify(template)}::jsonb)
     WHERE "id" = ${runId} AND NOT (coalesce("config", '{}'::jsonb) ? 'sweetTemplate')`;
  return changed > 0;
}

/**
 * Records the settings a run's candidates are ranked with (sum or mean, with or without the final
 * answer) beside its template, once: the first ranking's win, and every later scoring of the run's
 * turns (more ranking, a browser on the replay) uses them.
 */
export async function recordRunRankSettings(
  prisma: PrismaClient,
  runId: number,
  settings: Record<string, unknown>,
): Promise<boolean> {
  const changed = await prisma.$executeRaw`
    UPDATE "Run" SET "config" = jsonb_set(coalesce("config", '{}'::jsonb), '{sweetRank}', ${JSON.stringify(settings)}::jsonb)
     WHERE "id" = ${runId} AND NOT (coalesce("config", '{}'::jsonb) ? 'sweetRank')`;
  return changed > 0;
}
