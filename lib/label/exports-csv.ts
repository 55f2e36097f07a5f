// A raw label line (lib/label/exports.ts) as one flat CSV record: nested sides become columns of their
// own (a_run, a_episode, a_candidate), and anything else nested (criteria) stays JSON in its cell.

import type { CsvValue } from "../table/csv";

const SIDE = ["run", "episode", "candidate"] as const;

export function flatLabelRecord(line: Record<string, unknown>): Record<string, CsvValue> {
  const flat: Record<string, CsvValue> = {};
  for (const [key, value] of Object.entries(line)) {
    if ((key === "a" || key === "b") && value && typeof value === "object") {
      const side = value as Record<string, unknown>;
      for (const part of SIDE) flat[`${key}_${part}`] = (side[part] as number | undefined) ?? null;
    } else if (key === "criteria") {
      continue;
    } else if (value !== null && typeof value === "object") {
      flat[key] = JSON.stringify(value);
    } else {
      flat[key] = value as CsvValue;
    }
  }
  // Present in every record, so every record has the same columns (criteria only where a queue asks).
  flat.criteria = line.criteria === undefined ? null : JSON.stringify(line.criteria);
  return flat;
}
