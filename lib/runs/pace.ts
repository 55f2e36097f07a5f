// How fast a run goes and when it will be done, from the run's own history. One place computes it
// and every view (the run page's charts and Workers panel, the CLI) shows the same figures.
//
// The pace is Little's law: episodes in play divided by how long an episode takes. Counting the
// episodes that ended per minute instead is wrong for the first minutes of a run (nothing ends
// during the first episode's length, so a window that starts with the run underestimates, and one
// that starts at the first finish overestimates by as much).
//
// "In play" is the time-averaged number over the recent past, read from when each episode started
// and ended, not the lease holders at this instant: episodes of similar length end in waves, and
// right after a wave most slots are empty until their workers fetch the next job, so the count at
// one instant reads a fraction of the real pace (the ETA was 1.5-3.5x too long in a run's first half).

export interface PaceFigures {
  /** Episodes not done or failed. */
  remaining: number;
  /** Episodes being played now (claimed and held). */
  playing: number;
  /** Episodes that ended, all told. */
  ended: number;
  /** Mean wall time of the episodes that ended lately (from their start to their end), null before any did. */
  meanEpisodeMs: number | null;
  /** Of those being played, how many wait for a model server that does not answer (Episode.waitingFor). */
  waiting?: number;
  /**
   * The history the number in play is averaged from (without it, `playing` is taken as it stands):
   * the time the figures are for (ms since the epoch), [end, took] of the episodes that ended within
   * `windowMs` before it (took NaN: it never started), when those in play now started, and when the
   * run's first episode started.
   */
  atMs?: number;
  windowMs?: number;
  recent?: Array<[number, number]>;
  playingSince?: number[];
  firstStartMs?: number | null;
}

export interface Pace {
  /**
   * "starting": playing, nothing ended yet; "playing": a pace is known; "waiting": what plays waits
   * for a model server, so no pace holds; "idle": nothing plays now; "finished".
   */
  state: "starting" | "playing" | "waiting" | "idle" | "finished";
  remaining: number;
  /** Episodes that end per minute at the current pace (null while unknown). */
  perMinute: number | null;
  /** Milliseconds until the run is done at that pace (null while unknown). */
  etaMs: number | null;
  /** Episodes being played now, and how many of them wait for a server (both from the same rows). */
  playing?: number;
  waiting?: number;
}

/**
 * Between two jobs a worker's slot stays empty for as long as it takes to fetch the next (pg-boss
 * polls every few seconds): no one holding a lease that soon after an episode ended is a gap
 * between waves, not a run that stopped.
 */
const BETWEEN_WAVES_MS = 30_000;

export function paceOf(f: PaceFigures): Pace {
  const counts = { playing: f.playing, waiting: f.waiting ?? 0 };
  if (f.remaining === 0) return { state: "finished", remaining: 0, perMinute: null, etaMs: 0, ...counts };
  // While a server is down nothing moves, and a pace from before the outage would promise an end
  // that only its coming back decides.
  if (counts.waiting > 0) return { state: "waiting", remaining: f.remaining, perMinute: null, etaMs: null, ...counts };
  const lastEnded = f.recent?.length ? Math.max(...f.recent.map(([end]) => end)) : null;
  const betweenWaves = lastEnded !== null && f.atMs !== undefined && f.atMs - lastEnded < BETWEEN_WAVES_MS;
  if (f.playing === 0 && !betweenWaves)
    return { state: "idle", remaining: f.remaining, perMinute: null, etaMs: null, ...counts };
  if (f.meanEpisodeMs === null || f.meanEpisodeMs <= 0)
    return { state: "starting", remaining: f.remaining, perMinute: null, etaMs: null, ...counts };
  // No more can be in play than are left: at a run's tail the average over the past overstates it.
  const averaged =
    f.atMs !== undefined && f.recent && f.playingSince
      ? playingOnAverage(
          f.recent,
          f.playingSince,
          averagingFrom(f.atMs, f.meanEpisodeMs, f.firstStartMs ?? null, f.windowMs ?? Infinity),
          f.atMs,
        )
      : null;
  const inPlay = Math.min(averaged ?? f.playing, f.remaining);
  if (!(inPlay > 0)) return { state: "idle", remaining: f.remaining, perMinute: null, etaMs: null, ...counts };
  const perMs = inPlay / f.meanEpisodeMs;
  return { state: "playing", remaining: f.remaining, perMinute: perMs * 60_000, etaMs: f.remaining / perMs, ...counts };
}

/**
 * How many episodes were in play on average between `from` and `now` (ms since the epoch): the time
 * each spent in play inside that span, summed, over its length. `ended` holds [end, took] of those
 * that ended inside the span (took NaN: it never started), `playingSince` the starts of those in
 * play now. Null when the span is empty.
 */
export function playingOnAverage(
  ended: Array<[number, number]>,
  playingSince: number[],
  from: number,
  now: number,
): number | null {
  if (!(now > from)) return null;
  let busy = 0;
  for (const [end, took] of ended)
    if (!Number.isNaN(took) && end > from) busy += Math.min(end, now) - Math.max(end - took, from);
  for (const start of playingSince) busy += Math.max(0, now - Math.max(start, from));
  return busy / (now - from);
}

/**
 * The span to average over: a few episode lengths back (waves of episodes that end together come
 * every episode length, so several of them even out), at least a minute, at most `windowMs`, and
 * never before the run's first start.
 */
export function averagingFrom(
  now: number,
  meanEpisodeMs: number | null,
  firstStartMs: number | null,
  windowMs: number,
): number {
  const span = Math.min(windowMs, Math.max(60_000, 4 * (meanEpisodeMs ?? 0)));
  return Math.max(now - span, firstStartMs ?? now);
}
