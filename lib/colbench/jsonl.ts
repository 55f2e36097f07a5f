import type { z } from "zod";

// Every JSONL reader reports problems the same way: `(json)` for a line that does not parse,
// `(line)` for one that is not an object, else the zod path of each bad field.

export interface FieldProblem {
  field: string;
  message: string;
}

/** `FILE:LINE: field: problem`, the form every importer error takes. */
export function formatProblem(file: string, line: number, problem: FieldProblem): string {
  return `${file}:${line}: ${problem.field}: ${problem.message}`;
}

export type DecodedLine = { ok: true; record: Record<string, unknown> } | { ok: false; problems: FieldProblem[] };

export function decodeObjectLine(text: string): DecodedLine {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [{ field: "(json)", message: (error as Error).message }] };
  }
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    return { ok: false, problems: [{ field: "(line)", message: "expected a JSON object" }] };
  }
  return { ok: true, record: record as Record<string, unknown> };
}

export function zodProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.join(".") : "(line)",
    message: issue.message,
  }));
}

/**
 * A score-input line in either shape: the official trajectory `{task: {...}, answer}` (when it has
 * a `task` key) or the bare task fields with `answer`.
 */
export function decodeTaskLine<W extends z.ZodType, B extends z.ZodType>(
  text: string,
  wrappedSchema: W,
  bareSchema: B,
):
  | { ok: true; record: Record<string, unknown>; wrapped: true; data: z.infer<W> }
  | { ok: true; record: Record<string, unknown>; wrapped: false; data: z.infer<B> }
  | { ok: false; problems: FieldProblem[] } {
  const decoded = decodeObjectLine(text);
  if (!decoded.ok) return decoded;
  const wrapped = "task" in decoded.record;
  const parsed = (wrapped ? wrappedSchema : bareSchema).safeParse(decoded.record);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error) };
  // The record as read (with fields the schemas drop), for writing the line back out with results.
  const record = decoded.record;
  return wrapped
    ? { ok: true, record, wrapped: true, data: parsed.data as z.infer<W> }
    : { ok: true, record, wrapped: false, data: parsed.data as z.infer<B> };
}
