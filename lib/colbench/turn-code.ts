import type { Benchmark } from "./tasks";
import { extractAnswer, wantsToAnswer } from "./protocol";

// What an agent turn "proposes" as code, for showing answers turn by turn and diffing them.
// Scoring never uses this: the sandbox applies the benchmark's own fence rules to final answers.

const FENCE = "```";

/** The benchmark's fence rule for answers: after "```python" up to the next fence; else between the first two fences. */
export function stripFences(code: string): string {
  let text = code;
  const python = text.indexOf(FENCE + "python");
  if (python >= 0) {
    const rest = text.slice(python + FENCE.length + "python".length);
    const end = rest.indexOf(FENCE);
    text = end >= 0 ? rest.slice(0, end) : rest;
  }
  const first = text.indexOf(FENCE);
  if (first >= 0) {
    const second = text.indexOf(FENCE, first + FENCE.length);
    text = second >= 0 ? text.slice(first + FENCE.length, second) : text.slice(first + FENCE.length);
  }
  return text;
}

/** The last fenced block of a message, without its language tag; null when it has none. */
function lastFencedBlock(content: string): string | null {
  const blocks = [...content.matchAll(/```[\w+-]*\n?([\s\S]*?)```/g)];
  const last = blocks[blocks.length - 1];
  return last ? last[1]! : null;
}

export interface TurnLike {
  role: "agent" | "simulator";
  content: string;
  html?: string | null;
}

/** Backend: the final answer, or the code the agent showed in this turn; frontend: the page it proposed. */
export function codeOfTurn(turn: TurnLike, benchmark: Benchmark): string | null {
  if (turn.role !== "agent") return null;
  if (benchmark === "frontend") return turn.html ?? null;
  if (wantsToAnswer(turn.content)) return stripFences(extractAnswer(turn.content)).trim() + "\n";
  const block = lastFencedBlock(turn.content);
  return block === null ? null : block.trim() + "\n";
}
