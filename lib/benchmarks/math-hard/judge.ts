import { formatServerSpec } from "../../colbench/server-spec";
import type { DialogueMessage } from "../../colbench/protocol";
import { ModelServerError, type OpenAICompatibleClient } from "../../models/openai-client";
import { extractJson, LenientJsonError } from "./lenient-json";

// CollabLLM's math-hard `accuracy` (examples/metrics/accuracy.py): an LLM judge shown the problem,
// the reference solution and the whole conversation (system message left out), asked for a binary
// rating as JSON {"thought", "accuracy"} at temperature 0, its answer read leniently.

export interface JudgeVerdict {
  /** 1 when the judge found the conversation's answer correct, 0 when not. */
  accuracy: 0 | 1;
  thought: string;
}

/** Why a judge's answer is not a verdict; the scorer turns it into an error naming the judge's server. */
export class JudgeAnswerError extends Error {}

/**
 * The verdict in a judge's answer: both keys present (as CollabLLM requires), `accuracy` 0 or 1 (or
 * true/false, which CollabLLM's averages count as 1/0). Any other rating is not a verdict: the
 * published rating is binary and a reward outside {0, 1} would be a score nobody published.
 */
export function parseVerdict(text: string): JudgeVerdict {
  let value: unknown;
  try {
    value = extractJson(text);
  } catch (error) {
    if (error instanceof LenientJsonError) throw new JudgeAnswerError(`not a JSON object (${error.message})`);
    throw error;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new JudgeAnswerError("not a JSON object");
  const record = value as Record<string, unknown>;
  const missing = ["thought", "accuracy"].filter((key) => !(key in record));
  if (missing.length) throw new JudgeAnswerError(`the JSON lacks ${missing.map((k) => `"${k}"`).join(" and ")}`);
  const rating = record.accuracy === true ? 1 : record.accuracy === false ? 0 : record.accuracy;
  if (rating !== 0 && rating !== 1)
    throw new JudgeAnswerError(`"accuracy" is ${JSON.stringify(record.accuracy)}, not 0 or 1`);
  return {
    accuracy: rating,
    thought: typeof record.thought === "string" ? record.thought : JSON.stringify(record.thought),
  };
}

/**
 * The conversation as the judge reads it: CollabLLM passes `json.dumps(messages)`, the messages
 * with user/assistant roles. JSON.stringify writes the same list (without Python's spaces after
 * separators and \u escapes of non-ASCII characters); the reader is a model, not a parser.
 */
export function conversationForJudge(dialogue: readonly DialogueMessage[]): string {
  return JSON.stringify(dialogue.map((m) => ({ role: m.role, content: m.content })));
}

/** Fills the judge prompt's {problem}, {reference_solution} and {conversation} in one pass. */
export function fillJudgePrompt(
  template: string,
  values: { problem: string; referenceSolution: string; conversation: string },
): string {
  const byKey: Record<string, string> = {
    problem: values.problem.trim(),
    reference_solution: values.referenceSolution.trim(),
    conversation: values.conversation,
  };
  return template.replace(/\{(problem|reference_solution|conversation)\}/g, (_, key: string) => byKey[key]!);
}

/** Answers whose text is no verdict are asked again this often before the score fails (CollabLLM: 50 tries). */
export const JUDGE_ATTEMPTS = 3;

export interface JudgeResult extends JudgeVerdict {
  /** The judge's answer as it came. */
  raw: string;
  attempts: number;
}

/** Asks the judge; an answer that is no verdict after every attempt is an error that names its server. */
export async function askJudge(
  client: OpenAICompatibleClient,
  prompt: string,
  signal?: AbortSignal,
): Promise<JudgeResult> {
  let last = "";
  let why = "";
  for (let attempt = 1; attempt <= JUDGE_ATTEMPTS; attempt++) {
    const result = await client.chat({ messages: [{ role: "user", content: prompt }], temperature: 0, signal });
    last = result.text;
    try {
      return { ...parseVerdict(last), raw: last, attempts: attempt };
    } catch (error) {
      if (!(error instanceof JudgeAnswerError)) throw error;
      why = error.message;
    }
  }
  const server = formatServerSpec(client.spec);
  const cause = `the judge's answer is no verdict: ${why}`;
  throw new ModelServerError(
    `judge ${server}: ${cause} (after ${JUDGE_ATTEMPTS} attempts; last answer: ${last.slice(0, 200)})`,
    false,
    undefined,
    {
      server,
      path: "/chat/completions",
      cause,
      attempts: JUDGE_ATTEMPTS,
    },
  );
}
