// Failures a person can act on, each saying what to do. `code` lets callers (the run form, the
// frontend embedder's choice) tell "not possible here" from "broken".

export type HubErrorCode =
  "offline-missing" | "gated" | "not-found" | "missing-file" | "unreachable" | "integrity" | "interrupted" | "folder";

export class HubError extends Error {
  override readonly name = "HubError";
  constructor(
    readonly code: HubErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isHubError(error: unknown, ...codes: HubErrorCode[]): error is HubError {
  return error instanceof HubError && (codes.length === 0 || codes.includes(error.code));
}
