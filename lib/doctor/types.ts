// What `colbench doctor` and the studio's System page report: one part of the machine per line.
// The JSON form (`colbench doctor --json`) is this shape; README.md documents it and keeps it stable.

export type PartStatus = "ok" | "missing" | "degraded";

export interface Part {
  /** Stable key: node, packages, build, data-folder, chromium, firefox, python, numpy, sandbox, postgresql, database, webgpu, clip, model-server, render-cache. */
  id: string;
  /** What a person reads: "Chromium", "Model server http://gpu-box:8000/v1". */
  name: string;
  status: PartStatus;
  /** Whether the studio needs it: a required part that is missing makes the report fail (exit status 1). */
  required: boolean;
  /** One line: what was found. */
  summary: string;
  /** What to do about it, when the status is not ok. */
  fix?: string;
  /** Facts behind the summary (paths, versions, counts); their keys are per part. */
  details: Record<string, unknown>;
}

export interface DoctorReport {
  /** Bumped only when a field changes meaning or goes away. */
  version: 1;
  /** No required part is missing. */
  ok: boolean;
  parts: Part[];
  /** When the report was made (ISO 8601) and how long it took. */
  at: string;
  tookMs: number;
}

export function part(p: Omit<Part, "details"> & { details?: Record<string, unknown> }): Part {
  return { ...p, details: p.details ?? {} };
}
