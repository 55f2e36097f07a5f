/**
 * A person's move that arrives when it is not that side's turn. Recognised by name, not by
 * `instanceof`: the run manager is loaded by the CLI while route code carries its own bundled
 * copy of this module, so the two classes are not the same object.
 */
export class MoveRefused extends Error {
  override readonly name = "MoveRefused";
}

export function isMoveRefused(error: unknown): error is MoveRefused {
  return error instanceof Error && error.name === "MoveRefused";
}
