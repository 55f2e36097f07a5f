// A prompt's placeholders. The prompts themselves are each benchmark's (lib/benchmarks/prompts.ts).

export type PromptRole = "agent" | "simulator";

export interface PromptSet {
  agent: string;
  simulator: string;
}

/**
 * Fills {problem_description}, {hidden_information} and {dialogue_history} in one pass, so text
 * inside a value (code with braces, say) is never taken for a placeholder.
 */
export function fillPrompt(template: string, values: Record<string, string>): string {
  return template.replace(/\{(problem_description|hidden_information|dialogue_history)\}/g, (whole, key: string) =>
    key in values ? values[key]! : whole,
  );
}
