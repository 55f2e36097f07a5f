import { z } from "zod";
import { decodeObjectLine, zodProblems } from "../colbench/jsonl";
import type { TurnRecord } from "../colbench/episode";
import type { FieldProblem, TaskInput } from "../colbench/tasks";
import { guessBenchmark, parseTaskRecord, toOfficialRecord } from "./tasks";

// The benchmark's trajectory JSONL: one episode a line,
//   {task, dialogue_history: [{role: "user", content} | {role: "assistant", content, input, output}], answer, reward}

export interface OfficialTurn {
  role: "user" | "assistant";
  content: string;
  input?: unknown;
  output?: string;
}

export interface OfficialTrajectory {
  task: Record<string, unknown>;
  dialogue_history: OfficialTurn[];
  answer: string | null;
  reward: number | null;
}

export function toOfficialTrajectory(
  task: TaskInput,
  turns: readonly TurnRecord[],
  answer: string | null,
  reward: number | null,
): OfficialTrajectory {
  return {
    task: toOfficialRecord(task),
    dialogue_history: turns.map((turn): OfficialTurn =>
      turn.role === "simulator"
        ? { role: "user", content: turn.content }
        : {
            role: "assistant",
            content: turn.content,
            input: turn.prompt ?? null,
            output: turn.rawOutput ?? turn.content,
          },
    ),
    answer,
    reward,
  };
}

const turnSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("user"), content: z.string() }),
  z.object({
    role: z.literal("assistant"),
    content: z.string(),
    input: z.unknown().optional(),
    output: z.string().nullish(),
  }),
]);

const trajectorySchema = z.object({
  task: z.record(z.string(), z.unknown()),
  dialogue_history: z.array(turnSchema).min(1, "must hold at least the task's description"),
  answer: z.string().nullish(),
  reward: z.number().nullish(),
});

export interface ParsedTrajectory {
  task: TaskInput;
  turns: TurnRecord[];
  answer: string | null;
  reward: number | null;
}

export type TrajectoryParse = { ok: true; trajectory: ParsedTrajectory } | { ok: false; problems: FieldProblem[] };

/** A trajectory line; its task is read as `benchmark`'s, or as the benchmark that recognizes the record. */
export function parseTrajectoryLine(line: string, benchmark?: string): TrajectoryParse {
  const decoded = decodeObjectLine(line);
  if (!decoded.ok) return decoded;
  const parsed = trajectorySchema.safeParse(decoded.record);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error) };
  const record = parsed.data;
  const named = benchmark ?? guessBenchmark(record.task);
  if (named === null)
    return {
      ok: false,
      problems: [{ field: "task", message: "matches no benchmark's task format: name the benchmark (--benchmark)" }],
    };
  const task = parseTaskRecord(record.task, named);
  if (!task.ok) return { ok: false, problems: task.problems.map((p) => ({ ...p, field: `task.${p.field}` })) };
  const turns: TurnRecord[] = record.dialogue_history.map((turn, index) =>
    turn.role === "user"
      ? { index, role: "simulator", content: turn.content }
      : { index, role: "agent", content: turn.content, prompt: turn.input ?? null, rawOutput: turn.output ?? null },
  );
  return {
    ok: true,
    trajectory: { task: task.task, turns, answer: record.answer ?? null, reward: record.reward ?? null },
  };
}
