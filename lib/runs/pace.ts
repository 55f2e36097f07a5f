// How fast a run goes and when it will be done, from the run's own history. One place computes it
// and every view (the run page's charts and Workers panel, the CLI) shows the same figures.
//
// The pace is Little's law: episodes in play divided by how long an episode takes. Counting the
// episodes that ended per minute instead is wrong for the first minutes of a run (nothing ends
// during the first episode's length, so a window that starts with the run underestimates, and one
// that starts at the first finish overestimates by as much).

export interface PaceFigures {
  /** Episodes not done or failed. */
  remaining: number;
  /** Episodes being played now (claimed and held). */
  playing: number;
  /** Episodes that ended, all told. */
  ended: number;
  /** Mean wall time of the episodes that ended lately (from their start to their end), null before any did. */
  meanEpisodeMs: number | null;
}

export interface Pace {
  /** "starting": playing, nothing ended yet; "playing": a pace is known; "idle": nothing plays now; "finished". */
  state: "starting" | "playing" | "idle" | "finished";
  remaining: number;
  /** Episodes that end per minute at the current pace (null while unknown). */
  perMinute: number | null;
  /** Milliseconds until the run is done at that pace (null while unknown). */
  etaMs: number | null;
}

export function paceOf(f: PaceFigures): Pace {
  if (f.remaining === 0) return { state: "finished", remaining: 0, perMinute: null, etaMs: 0 };
  if (f.playing === 0) return { state: "idle", remaining: f.remaining, perMinute: null, etaMs: null };
  if (f.meanEpisodeMs === null || f.meanEpisodeMs <= 0) return { state: "starting", remaining: f.remaining, perMinute: null, etaMs: null };
  const perMs = f.playing / f.meanEpisodeMs;
  return { state: "playing", remaining: f.remaining, perMinute: perMs * 60_000, etaMs: f.remaining / perMs };
}
