import type { Prisma, PrismaClient } from "../db/generated/client";
import { runConfigSchema, type RunConfig } from "../benchmarks/run-config";
import { benchmarkOf } from "../benchmarks";

// Rescoring a finished run whose answers are pages under another render profile: the episodes' final pages and
// their targets are read here, scored elsewhere (lib/runs/rescore.ts), and the new scores replace
// the old ones in one transaction, with the run's profile, so a run never holds scores of two
// profiles and a rescore that stops halfway leaves the old ones as they were.

export interface ScoredEpisodeInput {
  id: number;
  answer: string | null;
  groundTruth: string;
}

/** A finished run's episodes with what scoring their pages needs; refuses a run still playing, or one whose answers are not pages. */
export async function episodesToRescore(
  prisma: PrismaClient,
  runId: number,
): Promise<{ config: RunConfig; episodes: ScoredEpisodeInput[] }> {
  const run = await prisma.run.findUnique({
    where: { id: runId },
    select: { name: true, benchmark: true, config: true },
  });
  if (!run) throw new Error(`no run ${runId}`);
  // The benchmark says whether its answers are pages, and so rendered (an unknown benchmark is an error naming the known ones).
  if (benchmarkOf(run.benchmark).answer.kind !== "page")
    throw new Error(`${run.name} is a ${run.benchmark} run: only runs whose answers are pages are rendered`);
  const parsed = runConfigSchema.safeParse(run.config);
  if (!parsed.success)
    throw new Error(`${run.name} has no run configuration (imported trajectories keep the rewards they came with)`);
  const unfinished = await prisma.episode.count({ where: { runId, status: { in: ["pending", "running"] } } });
  if (unfinished)
    throw new Error(
      `${run.name} has ${unfinished} unfinished episode(s): finish it first (\`colbench resume ${run.name}\`)`,
    );
  const rows = await prisma.episode.findMany({
    where: { runId, status: "done" },
    orderBy: { id: "asc" },
    select: { id: true, answer: true, task: { select: { groundTruth: true } } },
  });
  return {
    config: parsed.data,
    episodes: rows.map((r) => ({ id: r.id, answer: r.answer, groundTruth: r.task.groundTruth })),
  };
}

export interface NewScore {
  id: number;
  reward: number;
  /** Written as JSON. */
  details: unknown;
}

/** Every new score and the run's new config at once (batched UPDATE … FROM unnest). */
export async function replaceScores(
  prisma: PrismaClient,
  runId: number,
  scores: NewScore[],
  config: RunConfig,
): Promise<void> {
  const BATCH = 500;
  const statements: Prisma.PrismaPromise<unknown>[] = [];
  for (let i = 0; i < scores.length; i += BATCH) {
    const part = scores.slice(i, i + BATCH);
    statements.push(prisma.$executeRaw`
      UPDATE "Episode" AS e SET "reward" = v.reward, "details" = v.details
        FROM unnest(${part.map((s) => s.id)}::int[], ${part.map((s) => s.reward)}::float8[], ${part.map((s) => JSON.stringify(s.details))}::jsonb[]) AS v(id, reward, details)
       WHERE e."id" = v.id AND e."runId" = ${runId}`);
  }
  statements.push(prisma.run.update({ where: { id: runId }, data: { config: config } }));
  await prisma.$transaction(statements);
}
