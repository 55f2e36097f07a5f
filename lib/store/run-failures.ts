import type { PrismaClient } from "../db/generated/client";
import { groupFailures, type FailureGroup } from "../colbench/failure";

// A run's failed episodes grouped by why they failed (lib/colbench/failure.ts), for the run page.

/** At most this many failed episodes are read; the rest are counted, not grouped. */
const READ_AT_MOST = 20_000;

export async function runFailureGroups(
  prisma: PrismaClient,
  runId: number,
): Promise<{ failed: number; groups: FailureGroup[] }> {
  const where = { runId, status: "failed" as const };
  const [failed, rows] = await Promise.all([
    prisma.episode.count({ where }),
    prisma.episode.findMany({ where, select: { id: true, details: true }, orderBy: { id: "asc" }, take: READ_AT_MOST }),
  ]);
  return { failed, groups: groupFailures(rows) };
}
