// PostgreSQL's autovacuum keeps planner statistics current; PGlite has no background workers, so
// an embedded database is never analysed and its planner guesses. With no statistics a search for a
// common word reads every match through the GIN index and sorts them (~70 ms on 100,000 turns)
// instead of walking the newest turns until fifty match (~10 ms). The owner analyses the folder a
// little after it starts serving and then every few minutes; commands that end sooner never pay.

export interface StatisticsKeeper {
  /** Stops the timer and waits for an ANALYZE in flight. */
  stop(): Promise<void>;
}

export function keepStatistics(analyze: () => Promise<unknown>, options: { firstAfterMs?: number; everyMs?: number } = {}): StatisticsKeeper {
  const firstAfterMs = options.firstAfterMs ?? 5_000;
  const everyMs = Math.max(options.everyMs ?? 5 * 60_000, 10);
  let running: Promise<void> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout;
  const tick = () => {
    if (stopped) return;
    running = analyze()
      .then(() => undefined)
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
