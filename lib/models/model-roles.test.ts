import { describe, expect, it } from "vitest";
import { ModelAgent } from "./model-roles";
import type { OpenAICompatibleClient } from "./openai-client";
import type { ChatRequest } from "./types";

// The agent prompt goes in as the system message exactly as written, placeholders and all, with the
// dialogue after it as chat messages: what the published environment's agent does
// (sweet_rl/models/vllm_agent.py puts agent_prompt, unformatted, as the system message before the
// dialogue). Only the simulator's prompt has its placeholders filled.

describe("the agent's prompt", () => {
  it("is the system message verbatim, {problem_description} and {dialogue_history} left as written", async () => {
    const sent: ChatRequest[] = [];
    const client = {
      spec: { baseUrl: "http://127.0.0.1:1/v1", model: "stub" },
      chat: async (request: ChatRequest) => {
        sent.push(request);
        return { text: "A question?", latencyMs: 0, totalMs: 0, attempts: 1 };
      },
    } as unknown as OpenAICompatibleClient;
    const prompt = "Help with: {problem_description}\nComplete the next turn of:\n{dialogue_history}";
    const agent = new ModelAgent(client, prompt);
    const dialogue = [{ role: "user" as const, content: "Write add." }];
    const move = await agent.act({ dialogue } as unknown as Parameters<ModelAgent["act"]>[0]);
    expect(sent[0]!.messages).toEqual([{ role: "system", content: prompt }, ...dialogue]);
    expect(move.prompt).toEqual(sent[0]!.messages);
  });
});
