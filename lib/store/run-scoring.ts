import type { PrismaClient } from "../db/generated/client";

// The settings a run's ranking recorded (`sweetRank` in its config, beside `sweetTemplate`):
// lib/sweet/run-template.ts reads and records them through these.

/** The run's name and its recorded rank settings (as stored; null where none are), or null for no run. */
export async function runRankSettings(
  prisma: PrismaClient,
  runId: number,
): Promise<{ name: string; rank: Record<string, unknown> | null } | null> {
  const run = await prisma.run.findUnique({ where: { id: runId }, select: { name: true, config: true } });
  if (!run) return null;
  const rank = (run.config as { sweetRank?: unknown } | null)?.sweetRank;
  return { name: run.name, rank: rank && typeof rank === "object" ? (rank as Record<string, unknown>) : null };
}

/**
 * Records the settings a run's candidates are ranked with (sum or mean, with or without the final
 * answer), once: the first ranking's win, and every later scoring of the run's turns (more ranking,
 * a browser on the replay) uses them.
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
