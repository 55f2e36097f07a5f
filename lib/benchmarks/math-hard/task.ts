import { z } from "zod";
import { zodProblems } from "../../colbench/jsonl";
import type { TaskFormat } from "../module";

// A math-hard task record in either of its published shapes:
// - CollabLLM's single-turn record (collabllm/datasets/single_turn.py `to_hf_dataset`, the fields its
//   evaluation reads and its multiturn hub datasets carry): single_turn_prompt (the problem),
//   single_turn_completion (the reference solution with \boxed{}), single_turn_metadata {level, type};
// - lighteval/MATH-Hard's raw line (the files CollabLLM loads): problem, solution, level, type.
// The official record written back is CollabLLM's: it is what the benchmark's own evaluation reads.
// The studio's task keeps no level or type, so records written back carry no single_turn_metadata
// (CollabLLM's accuracy judge never reads it).

const text = z.string().trim().min(1, "must be a non-empty string");

export const collabllmRecordSchema = z.object({
  single_turn_prompt: text,
  single_turn_completion: text,
  single_turn_metadata: z
    .object({ level: z.string().optional(), type: z.string().optional() })
    .passthrough()
    .optional(),
});

export const lightevalRecordSchema = z.object({
  problem: text,
  solution: text,
  level: z.string().optional(),
  type: z.string().optional(),
});

/**
 * What the agent is told of a task: CollabLLM tells its assistant nothing (the user opens), and its
 * simulated user's task description for math-hard is "question answering"; this says as much.
 */
export const MATH_HARD_DESCRIPTION = "A user wants help with a competition mathematics question.";

export const mathHardTask = {
  schema: collabllmRecordSchema,
  parse(record) {
    // A record with lighteval's keys (and none of CollabLLM's) is read as lighteval's; problems
    // otherwise name CollabLLM's fields.
    const lighteval =
      record !== null && typeof record === "object" && !("single_turn_prompt" in record) && "problem" in record;
    const parsed = lighteval ? lightevalRecordSchema.safeParse(record) : collabllmRecordSchema.safeParse(record);
    if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error) };
    const [problem, solution] =
      "problem" in parsed.data
        ? [parsed.data.problem, parsed.data.solution]
        : [parsed.data.single_turn_prompt, parsed.data.single_turn_completion];
    return {
      ok: true,
      task: {
        benchmark: "math-hard",
        problemDescription: MATH_HARD_DESCRIPTION,
        hiddenInformation: problem,
        groundTruth: solution,
        testCases: null,
      },
    };
  },
  official: (task) => ({ single_turn_prompt: task.hiddenInformation ?? "", single_turn_completion: task.groundTruth }),
  recognizes: (record) => "single_turn_prompt" in record || ("problem" in record && "solution" in record),
} satisfies TaskFormat;
