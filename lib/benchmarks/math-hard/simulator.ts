import { fillPrompt } from "../../colbench/prompts";
import type { DialogueMessage } from "../../colbench/protocol";
import type { Simulator, SimulatorMove, SimulatorTurnInput } from "../../colbench/roles";
import { formatServerSpec } from "../../colbench/server-spec";
import type { OpenAICompatibleClient } from "../../models/openai-client";
import type { ChatMessage } from "../../models/types";
import { extractJson, LenientJsonError } from "./lenient-json";

// CollabLLM's simulated user (collabllm/modules/user_simulator.py): one user message holding the
// task description, the problem (hidden from the assistant) and the chat so far, sampled at
// temperature 1.0 with at most 1024 tokens; it answers JSON {current_answer, thought, response}
// and only `response`, stripped, becomes the user's message. Here {problem_description} is the
// task's public line, {hidden_information} the problem, {dialogue_history} the chat.

/** The chat as CollabLLM's `parse_messages` writes it: "**User**: …" and "**Assistant**: …" lines. */
export function chatHistory(dialogue: readonly DialogueMessage[]): string {
  return dialogue.map((m) => `**${m.role === "user" ? "User" : "Assistant"}**: ${m.content}`).join("\n");
}

/** The user's message in a simulator answer: its JSON's `response`, or null when the answer has none. */
export function responseOf(text: string): string | null {
  try {
    const value = extractJson(text);
    if (value && typeof value === "object" && !Array.isArray(value) && typeof value.response === "string")
      return value.response.trim();
    return null;
  } catch (error) {
    if (error instanceof LenientJsonError) return null;
    throw error;
  }
}

/**
 * Answers that are no {…, "response"} JSON are asked again this often (CollabLLM: 10 tries); after
 * that the whole answer, stripped, is taken as the user's message rather than failing the episode.
 */
export const SIMULATOR_ATTEMPTS = 3;

export class CollabUserSimulator implements Simulator {
  readonly kind = "model";
  readonly name: string;

  constructor(
    private readonly client: OpenAICompatibleClient,
    private readonly template: string,
  ) {
    this.name = formatServerSpec(client.spec);
  }

  async reply(input: SimulatorTurnInput): Promise<SimulatorMove> {
    const messages: ChatMessage[] = [
      {
        role: "user",
        content: fillPrompt(this.template, {
          problem_description: input.task.problemDescription,
          hidden_information: input.task.hiddenInformation ?? "",
          dialogue_history: chatHistory(input.dialogue),
        }),
      },
    ];
    let waitMs = 0;
    let promptTokens = 0;
    let completionTokens = 0;
    let text = "";
    for (let attempt = 1; attempt <= SIMULATOR_ATTEMPTS; attempt++) {
      const result = await this.client.chat({ messages, temperature: 1.0, maxTokens: 1024, signal: input.signal });
      waitMs += result.totalMs;
      promptTokens += result.usage?.promptTokens ?? 0;
      completionTokens += result.usage?.completionTokens ?? 0;
      text = result.text;
      const response = responseOf(text);
      if (response !== null)
        return { text: response, prompt: messages, usage: { promptTokens, completionTokens }, waitMs };
    }
    return { text: text.trim(), prompt: messages, usage: { promptTokens, completionTokens }, waitMs };
  }
}
