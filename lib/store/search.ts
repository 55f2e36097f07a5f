import { Prisma, type PrismaClient } from "../db/generated/client";
import { isBenchmark, type Benchmark } from "../benchmarks";

// Full-text search over every turn said in every episode (the Turn.search column the database
// generates from the message, indexed with GIN), with filters on the episode it belongs to.

export interface TurnSearch {
  /** Words, "a quoted phrase", -excluded words (PostgreSQL's websearch syntax). */
  q: string;
  runId?: number;
  benchmark?: Benchmark;
  minReward?: number;
  maxReward?: number;
  /** Agent turns in the episode (questions asked and the answer). */
  minAgentTurns?: number;
  maxAgentTurns?: number;
  /** Only episodes a person played (true), or only model-played ones (false). */
  human?: boolean;
  limit?: number;
}

export interface TurnHit {
  episodeId: number;
  index: number;
  role: "agent" | "simulator";
  runId: number | null;
  runName: string | null;
  taskId: number;
  benchmark: Benchmark;
  reward: number | null;
  /** The matching words marked with «», a few words either side. */
  snippet: string;
}

export const MAX_HITS = 100;

/**
 * A run's episodes are made together, so their ids lie in a short span. Walking turns newest
 * first, this cheap test passes over other runs' turns before their words are matched: a common
 * word in a run older than two others, 18 -> 10 ms; in a run with no match, 50 -> 6 ms. The ends go
 * in as numbers: as parameters, a generic plan could not see how narrow the span is and read the
 * whole run (400 ms).
 */
async function episodeSpan(prisma: PrismaClient, runId: number): Promise<Prisma.Sql | null> {
  const [span] = await prisma.$queryRaw<Array<{ first: number | null; last: number | null }>>`
    SELECT min("id") AS "first", max("id") AS "last" FROM "Episode" WHERE "runId" = ${runId}`;
  const first = Number(span?.first);
  const last = Number(span?.last);
  if (span?.first == null || !Number.isSafeInteger(first) || !Number.isSafeInteger(last)) return null;
  return Prisma.raw(`t."episodeId" BETWEEN ${first} AND ${last}`);
}

export async function searchTurns(prisma: PrismaClient, search: TurnSearch): Promise<TurnHit[]> {
  const q = search.q.trim();
  if (!q) return [];
  const where: Prisma.Sql[] = [Prisma.sql`t."search" @@ websearch_to_tsquery('english', ${q})`];
  if (search.runId !== undefined) {
    where.push(Prisma.sql`e."runId" = ${search.runId}`);
    const span = await episodeSpan(prisma, search.runId);
    if (!span) return [];
    where.push(span);
  }
  if (search.benchmark) where.push(Prisma.sql`k."benchmark" = ${search.benchmark}`);
  if (search.minReward !== undefined) where.push(Prisma.sql`e."reward" >= ${search.minReward}`);
  if (search.maxReward !== undefined) where.push(Prisma.sql`e."reward" <= ${search.maxReward}`);
  if (search.human !== undefined)
    where.push(
      search.human ? Prisma.sql`r."kind" = 'played'` : Prisma.sql`(r."kind" IS NULL OR r."kind" = 'benchmark')`,
    );
  if (search.minAgentTurns !== undefined || search.maxAgentTurns !== undefined) {
    const agentTurns = Prisma.sql`(SELECT count(*) FROM "Turn" a WHERE a."episodeId" = e."id" AND a."role" = 'agent')`;
    if (search.minAgentTurns !== undefined) where.push(Prisma.sql`${agentTurns} >= ${search.minAgentTurns}`);
    if (search.maxAgentTurns !== undefined) where.push(Prisma.sql`${agentTurns} <= ${search.maxAgentTurns}`);
  }
  const limit = Math.min(Math.max(search.limit ?? 50, 1), MAX_HITS);
  // Newest matches first; the snippet is made for the rows returned only.
  const found = await prisma.$queryRaw<
    Array<Omit<TurnHit, "snippet" | "benchmark"> & { benchmark: string; content: string }>
  >`
    SELECT t."episodeId", t."index", t."role"::text AS role, e."runId", r."name" AS "runName", e."taskId", k."benchmark", e."reward", t."content"
      FROM "Turn" t
      JOIN "Episode" e ON e."id" = t."episodeId"
      JOIN "Task" k ON k."id" = e."taskId"
      LEFT JOIN "Run" r ON r."id" = e."runId"
     WHERE ${Prisma.join(where, " AND ")}
     ORDER BY t."id" DESC
     LIMIT ${limit}`;
  // Turns of a benchmark this studio does not know are left out (lib/store/benchmark-names.ts);
  // filtered here rather than in the query, whose plan the newest-first walk depends on.
  const rows = found.filter((row): row is typeof row & { benchmark: Benchmark } => isBenchmark(row.benchmark));
  if (!rows.length) return [];
  const snippets = await prisma.$queryRaw<Array<{ snippet: string }>>`
    SELECT ts_headline('english', c, websearch_to_tsquery('english', ${q}), 'StartSel=«, StopSel=», MaxWords=24, MinWords=8, MaxFragments=2') AS snippet
      FROM unnest(${rows.map((r) => r.content)}::text[]) WITH ORDINALITY AS u(c, n) ORDER BY n`;
  return rows.map(({ content: _content, ...row }, i) => ({ ...row, snippet: snippets[i]!.snippet }));
}
