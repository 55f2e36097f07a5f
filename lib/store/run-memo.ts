import type { PrismaClient } from "../db/generated/client";

// A run's figures are recounted from its episodes, tens of milliseconds on a 10,000-episode run,
// at every visit of its page, though a finished run's episodes no longer change. The studio keeps
// what it counted beside the run's revision and counts again only when the revision moves. The
// revision reads PostgreSQL's own row versions (xmin): every write to the run's row or to one of
// its episodes makes a new version, and every write to a turn changes its episode's totals (the
// triggers of migration 20261125193157_episode_turn_totals), so nothing a cached figure depends
// on can change while the revision stays. Candidates and pairs are not covered: what is counted
// from them is not kept.

/** The run's revision: its row's version, and its episodes' count and summed versions (null: no such run). */
export async function runRevision(prisma: PrismaClient, runId: number): Promise<string | null> {
  const [row] = await prisma.$queryRaw<Array<{ run: string | null; n: number; versions: string }>>`
    SELECT (SELECT "xmin"::text FROM "Run" WHERE "id" = ${runId}) AS "run",
           count(*)::int AS "n", coalesce(sum("xmin"::text::bigint), 0)::text AS "versions"
      FROM "Episode" WHERE "runId" = ${runId}`;
  return row?.run ? `${row.run}:${row.n}:${row.versions}` : null;
}

/** Values counted from a run, each kept with the revision it was counted at (the most recently used runs only). */
export class RunMemo {
  private readonly runs = new Map<number, { revision: string; values: Map<string, unknown> }>();

  constructor(
    private readonly keep = 64,
    private readonly valuesPerRun = 48,
  ) {}

  /**
   * The value `count` gives for this run at `revision`, counted again only when the revision has
   * moved since, or when the value kept says it must not be kept (`lasting` false: it depends on
   * the time as well, say).
   */
  async get<T>(
    runId: number,
    revision: string | null,
    name: string,
    count: () => Promise<T>,
    lasting: (value: T) => boolean = () => true,
  ): Promise<T> {
    if (revision === null) return count();
    let run = this.runs.get(runId);
    if (run?.revision !== revision) run = { revision, values: new Map() };
    // Most recently used last: the first is the one to forget.
    this.runs.delete(runId);
    this.runs.set(runId, run);
    if (this.runs.size > this.keep) this.runs.delete(this.runs.keys().next().value!);
    if (run.values.has(name)) {
      const value = run.values.get(name) as T;
      // Most recently used last here too.
      run.values.delete(name);
      run.values.set(name, value);
      return value;
    }
    const value = await count();
    if (lasting(value)) {
      run.values.set(name, value);
      // Pages of episodes are many names: a person paging through a large run keeps only the latest.
      if (run.values.size > this.valuesPerRun) run.values.delete(run.values.keys().next().value!);
    }
    return value;
  }
}
