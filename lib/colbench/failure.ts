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
  /** How long the failed request itself took, waiting out the outage included. */
  elapsedMs?: number;
  /**
   * When it was given up on for an outage: since when the server had not answered (ISO), and for
   * how long by then. A request that came after the give-up time had passed fails at once, so its
   * own attempts and time say nothing of the outage.
   */
  downSince?: string;
  downMs?: number;
}

export interface EpisodeFailure {
  message: string;
  /** Whose move failed, when it was a move. */
  side?: "agent" | "simulator";
  server?: ServerFailure;
  /** Model replies the episode had stored when it failed (0: it was never started; the task's opening line is not one). */
  moves?: number;
}

const seconds = (ms: number) => `${ms < 10_000 ? (ms / 1000).toFixed(1) : Math.round(ms / 1000)} s`;

/** One line for a person: which side's server, what went wrong, after how long. */
export function describeFailure(failure: EpisodeFailure): string {
  if (!failure.server) return failure.message;
  const s = failure.server;
  const who = failure.side
    ? `the ${failure.side === "agent" ? "agent" : "simulator"}'s model server`
    : "the model server";
  const neverStarted = failure.moves === 0 ? "; the episode was never started" : "";
  if (s.downSince !== undefined && s.downMs !== undefined) {
    const since = s.downSince.slice(11, 19);
    // Under a second of its own: it came after the give-up time and was not waited for.
    const waited =
      (s.elapsedMs ?? 0) >= 1000
        ? `gave up after waiting ${seconds(s.elapsedMs!)} (${s.attempts ?? 1} attempts)`
        : "given up at once, past the give-up time";
    return `${who} ${s.server} was down for ${seconds(s.downMs)} (since ${since} UTC: ${s.cause}); ${waited} on ${s.path}${neverStarted}`;
  }
  const tries = s.attempts ? ` after ${s.attempts} attempt${s.attempts === 1 ? "" : "s"}` : "";
  const time = s.elapsedMs !== undefined ? ` in ${(s.elapsedMs / 1000).toFixed(1)} s` : "";
  return `${who} ${s.server} failed on ${s.path}: ${s.cause}${tries}${time}${neverStarted}`;
}

/** What a played episode waits for while a model server it needs does not answer (Episode.waitingFor). */
export interface ServerWait {
  server: string;
  cause: string;
  /** ISO time the server stopped answering. */
  since: string;
}

/** "waiting for the model server (URL: cause, since T)", the words every view uses. */
export function describeWait(wait: ServerWait, now = Date.now()): string {
  const since = new Date(wait.since);
  const seconds = Math.max(0, Math.round((now - since.getTime()) / 1000));
  const ago = seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
  return `waiting for the model server (${wait.server}: ${wait.cause}, since ${since.toISOString().slice(11, 19)} UTC, ${ago} ago)`;
}

/** A stored waitingFor, if it is one. */
export function waitOf(value: unknown): ServerWait | null {
  const w = value as Partial<ServerWait> | null;
  return w && typeof w.server === "string" && typeof w.cause === "string" && typeof w.since === "string"
    ? (w as ServerWait)
    : null;
}

/** The failure stored with an episode, if it failed (older rows hold only `details.error`). */
export function failureOf(details: unknown): EpisodeFailure | null {
  if (!details || typeof details !== "object") return null;
  const d = details as { error?: unknown; failure?: EpisodeFailure };
  if (d.failure && typeof d.failure.message === "string") return d.failure;
  return typeof d.error === "string" ? { message: d.error } : null;
}

/**
 * The reason a failure is counted under on the run page: what happened without this episode's own
 * figures (its wait, its attempts), so that the episodes of one outage (one server, one start) or
 * one error share it.
 */
export function failureReason(failure: EpisodeFailure): string {
  const s = failure.server;
  if (!s) return failure.message.split("\n")[0]!.slice(0, 300);
  const who = failure.side ? `the ${failure.side}'s model server` : "the model server";
  const neverStarted = failure.moves === 0 ? "; never started" : "";
  if (s.downSince !== undefined) {
    return `${who} ${s.server} was down (since ${s.downSince.slice(11, 19)} UTC: ${s.cause})${neverStarted}`;
  }
  return `${who} ${s.server} failed on ${s.path}: ${s.cause}${neverStarted}`;
}

export interface FailureGroup {
  reason: string;
  count: number;
  /** The first few episodes with it (ids, in the order given). */
  examples: number[];
}

/** Failed episodes grouped by reason, the most frequent first (ties: the first seen first). */
export function groupFailures(episodes: Array<{ id: number; details: unknown }>, examples = 3): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const episode of episodes) {
    const failure = failureOf(episode.details);
    const reason = failure ? failureReason(failure) : "no reason was recorded";
    const group = groups.get(reason) ?? { reason, count: 0, examples: [] };
    group.count++;
    if (group.examples.length < examples) group.examples.push(episode.id);
    groups.set(reason, group);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}
