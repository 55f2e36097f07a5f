import type { PrismaClient } from "../db/generated/client";

// The `SweetStep` rows: one per start of a SWEET-RL step on a run, with the JSON record of what made
// its output (its shape and its reading are lib/sweet/lineage.ts's). Written and read in SQL of its own
// so that the two statements stay one round trip each.

export interface SweetStepRow {
  id: number;
  runId: number;
  runName: string;
  step: string;
  lineage: unknown;
  createdAt: Date;
}

/** Adds a step's record; its id. */
export async function recordSweetStep(
  prisma: PrismaClient,
  runId: number,
  step: string,
  lineage: Record<string, unknown>,
): Promise<SweetStepRow> {
  const [row] = await prisma.$queryRaw<SweetStepRow[]>`
    WITH added AS (
      INSERT INTO "SweetStep" ("runId", "step", "lineage") VALUES (${runId}, ${step}, ${JSON.stringify(lineage)}::jsonb)
      RETURNING "id", "runId", "step", "lineage", "createdAt"
    )
    SELECT a."id", a."runId", r."name" AS "runName", a."step", a."lineage", a."createdAt"
      FROM added a JOIN "Run" r ON r."id" = a."runId"`;
  if (!row) throw new Error(`no run ${runId}`);
  return row;
}

/** A run's step records, each step's latest `perStep` (newest first). */
export async function sweetStepsOf(prisma: PrismaClient, runId: number, perStep = 5): Promise<SweetStepRow[]> {
  return prisma.$queryRaw<SweetStepRow[]>`
    SELECT s."id", s."runId", r."name" AS "runName", s."step", s."lineage", s."createdAt"
      FROM (SELECT *, row_number() OVER (PARTITION BY "step" ORDER BY "createdAt" DESC, "id" DESC) AS "place"
              FROM "SweetStep" WHERE "runId" = ${runId}) s
      JOIN "Run" r ON r."id" = s."runId"
     WHERE s."place" <= ${perStep}
     ORDER BY s."step", s."createdAt" DESC, s."id" DESC`;
}

/** Drops a step's record: a start that stored nothing made nothing to name it. */
export async function forgetSweetStep(prisma: PrismaClient, id: number): Promise<void> {
  await prisma.$executeRaw`DELETE FROM "SweetStep" WHERE "id" = ${id}`;
}
