// Why an episode failed, kept with it (Episode.details.failure) so every page, the CLI's summary
// and the export can say it where the person is.

/** A model server's failure, in fields a page can show without the server's own text. */
export interface ServerFailure {
  /** The server as URL#MODEL. */
  server: string;
  path: string;
  /** The HTTP status, when there was an answer. */
  status?: number;
  /** "HTTP 503", "connect ECONNREFUSED 127.0.0.1:9", "no answer within 120000 ms", … */
  cause: string;
  attempts?: number;
  elapsedMs?: number;
}

export interface EpisodeFailure {
  message: string;
  /** Whose move failed, when it was a move. */
  side?: "agent" | "simulator";
  server?: ServerFailure;
}

/** One line for a person: which side's server, what went wrong, after how long. */
export function describeFailure(failure: EpisodeFailure): string {
  if (!failure.server) return failure.message;
  const s = failure.server;
  const who = failure.side ? `the ${failure.side === "agent" ? "agent" : "simulator"}'s model server` : "the model server";
  const tries = s.attempts ? ` after ${s.attempts} attempt${s.attempts === 1 ? "" : "s"}` : "";
  const time = s.elapsedMs !== undefined ? ` in ${(s.elapsedMs / 1000).toFixed(1)} s` : "";
  return `${who} ${s.server} failed on ${s.path}: ${s.cause}${tries}${time}`;
}

/** The failure stored with an episode, if it failed (older rows hold only `details.error`). */
export function failureOf(details: unknown): EpisodeFailure | null {
  if (!details || typeof details !== "object") return null;
  const d = details as { error?: unknown; failure?: EpisodeFailure };
  if (d.failure && typeof d.failure.message === "string") return d.failure;
  return typeof d.error === "string" ? { message: d.error } : null;
}
