import { z } from "zod";
import type { Side } from "../store/labels";

// A queue's label schema: what a label holds beyond A / B / tie / both bad. A lead chooses it when
// making the queue (`colbench queues create --graded --criteria … --reasons …`, the new-queue form);
// the desk asks for what it names, and a label that lacks what it requires is refused with why.
// The choice itself stays one of four, so agreement and the exports count a graded label as its
// side (a "much better A" is an A); the grade and criteria travel beside it.

/** How strongly a person prefers the side they chose (graded queues only). */
export type Strength = "much" | "slightly";
export const STRENGTHS: readonly Strength[] = ["much", "slightly"];

/** The answers a queue may require a reason (the comment) for. */
export type ReasonFor = "tie" | "both_bad" | "slightly" | "much";
export const REASONS_FOR: readonly ReasonFor[] = ["tie", "both_bad", "slightly", "much"];

/** A criterion's verdict, as the person saw the sides. */
export type CriterionSide = "left" | "right" | "tie";

export interface LabelSchema {
  /** A and B come as "much better" or "slightly better". */
  graded: boolean;
  /** Named criteria, each judged A / B / tie beside the overall choice (optional to answer). */
  criteria: string[];
  /** Answers that need a reason in the comment box. */
  reasonsFor: ReasonFor[];
}

export const PLAIN_SCHEMA: LabelSchema = { graded: false, criteria: [], reasonsFor: [] };

const criterionName = z
  .string()
  .trim()
  .min(1, "a criterion needs a name")
  .max(60, "a criterion's name is at most 60 characters")
  .regex(/^[^,\n]+$/, "a criterion's name has no comma or line break");

export const labelSchemaInput = z
  .object({
    graded: z.boolean().default(false),
    criteria: z.array(criterionName).max(8, "at most 8 criteria").default([]),
    reasonsFor: z.array(z.enum(REASONS_FOR as [ReasonFor, ...ReasonFor[]])).default([]),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (new Set(s.criteria).size !== s.criteria.length)
      ctx.addIssue({ code: "custom", path: ["criteria"], message: "criteria are named once each" });
    if (!s.graded && s.reasonsFor.some((r) => r === "much" || r === "slightly"))
      ctx.addIssue({
        code: "custom",
        path: ["reasonsFor"],
        message: "reasons for much / slightly better need a graded queue",
      });
  });

/** A stored schema (a queue's `labelSchema` column; `{}` is the plain one). */
export function parseLabelSchema(stored: unknown, where = "labelSchema"): LabelSchema {
  const parsed = labelSchemaInput.safeParse(stored ?? {});
  if (!parsed.success)
    throw new Error(
      `${where}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "schema"}: ${i.message}`).join("; ")}`,
    );
  return {
    graded: parsed.data.graded,
    criteria: parsed.data.criteria,
    reasonsFor: [...new Set(parsed.data.reasonsFor)],
  };
}

/** Whether the schema asks for nothing beyond the four choices (such a queue's key press is one statement). */
export const isPlain = (s: LabelSchema) => !s.graded && !s.criteria.length && !s.reasonsFor.length;

/** The column's value for a schema: the plain one is stored as `{}`. */
export const storedSchema = (s: LabelSchema): Record<string, unknown> =>
  isPlain(s)
    ? {}
    : {
        ...(s.graded ? { graded: true } : {}),
        ...(s.criteria.length ? { criteria: s.criteria } : {}),
        ...(s.reasonsFor.length ? { reasonsFor: s.reasonsFor } : {}),
      };

export interface Answer {
  side: Side;
  strength?: Strength | null;
  criteria?: Record<string, CriterionSide> | null;
  comment?: string | null;
}

/** Why an answer does not fit the queue's schema, or null when it does. */
export function answerProblem(schema: LabelSchema, answer: Answer): string | null {
  const chosen = answer.side === "left" || answer.side === "right";
  if (answer.strength && !schema.graded) return "strength: this queue asks for no strength of preference";
  if (answer.strength && !chosen)
    return `strength: only an A or B choice has one (got ${answer.side.replace("_", " ")})`;
  if (schema.graded && chosen && !answer.strength)
    return "strength: this queue asks how much better (much or slightly)";
  for (const name of Object.keys(answer.criteria ?? {})) {
    if (!schema.criteria.includes(name)) return `criteria: this queue has no criterion "${name}"`;
  }
  const kind: ReasonFor | null =
    answer.side === "tie" || answer.side === "both_bad" ? answer.side : (answer.strength ?? null);
  if (kind && schema.reasonsFor.includes(kind) && !answer.comment?.trim())
    return `comment: this queue asks for a reason when you answer ${describeAnswer(answer)}`;
  return null;
}

/** An answer in words, as the desk's buttons say it. */
export function describeAnswer(answer: Pick<Answer, "side" | "strength">): string {
  if (answer.side === "tie") return "tie";
  if (answer.side === "both_bad") return "both bad";
  const side = answer.side === "left" ? "A" : "B";
  return answer.strength ? `${side} ${answer.strength} better` : `${side} better`;
}
