import type { EpisodeFailure } from "../colbench/failure";
import { ModelServerError } from "../models/openai-client";

/** What is kept of an error that ended an episode: its text, whose move it was, and the server's part. */
export function failureFrom(error: unknown): EpisodeFailure {
  const message = error instanceof Error ? error.message : String(error);
  const side = (error as { side?: unknown } | null)?.side;
  return {
    message,
    ...(side === "agent" || side === "simulator" ? { side } : {}),
    ...(error instanceof ModelServerError && error.failure ? { server: error.failure } : {}),
  };
}
