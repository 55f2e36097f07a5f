// PostgreSQL's autovacuum keeps planner statistics current; PGlite has no background workers, so
// an embedded database is never analysed and its planner guesses. With no statistics a search for a
// common word reads every match through the GIN index and sorts them (~70 ms on 100,000 turns)
// instead of walking the newest turns until fifty match (~10 ms).
//
// Analysing the whole folder now and then is not enough: a prepared statement keeps the plan it
// made from the statistics of its day. The labelling desk's statement, planned while a new queue
// had no labels yet, went from 1.2 to 3.9 ms per label over its first 2000 labels and only
// recovered at the next ANALYZE. So the owner analyses the folder a little after it starts serving,
// then, every few seconds, only the tables that changed past autovacuum's own threshold since they
// were last analysed (autovacuum_analyze_threshold + autovacuum_analyze_scale_factor x rows), as
// autovacuum would. Commands that end sooner never pay.

export interface StatisticsSource {
  /** ANALYZE the whole folder. */
  analyzeAll(): Promise<unknown>;
  /** The tables (quoted, ready for ANALYZE) changed past the threshold since they were last analysed. */
  stale(): Promise<string[]>;
  analyze(tables: string[]): Promise<unknown>;
}

export interface StatisticsKeeper {
  /** Stops the timer and waits for a check or ANALYZE in flight. */
  stop(): Promise<void>;
}

/** Autovacuum's rule for when a table is due an ANALYZE, read from its own settings. */
export const STALE_TABLES_SQL = `
  SELECT format('%I.%I', s."schemaname", s."relname") AS "name"
    FROM pg_catalog.pg_stat_user_tables s JOIN pg_catalog.pg_class c ON c."oid" = s."relid"
   WHERE s."n_mod_since_analyze" > current_setting('autovacuum_analyze_threshold')::float8
                                   + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c."reltuples", 0)
   ORDER BY 1`;

export function keepStatistics(
  source: StatisticsSource,
  options: { firstAfterMs?: number; everyMs?: number } = {},
): StatisticsKeeper {
  const firstAfterMs = options.firstAfterMs ?? 5_000;
  const everyMs = Math.max(options.everyMs ?? 10_000, 10);
  let running: Promise<void> | null = null;
  let stopped = false;
  let first = true;
  let timer: NodeJS.Timeout;
  const step = async () => {
    if (first) {
      first = false;
      await source.analyzeAll();
      return;
    }
    const tables = await source.stale();
    if (tables.length > 0 && !stopped) await source.analyze(tables);
  };
  const tick = () => {
    if (stopped) return;
    running = step()
      .catch((error: unknown) => {
        // Statistics are an optimisation: a failed ANALYZE (the folder closing, say) costs only speed.
        if (process.env.COLBENCH_DEBUG_DB) process.stderr.write(`ANALYZE failed: ${String(error)}\n`);
      })
      .finally(() => {
        running = null;
        if (!stopped) timer = setTimeout(tick, everyMs).unref();
      });
  };
  timer = setTimeout(tick, firstAfterMs).unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
