import { fillPrompt } from "../colbench/prompts";
import { formatDialogue } from "../colbench/protocol";
import type { Agent, AgentMove, AgentTurnInput, Simulator, SimulatorMove, SimulatorTurnInput } from "../colbench/roles";
import { ModelServerError, type OpenAICompatibleClient } from "./openai-client";
import { formatServerSpec } from "../colbench/server-spec";
import type { ChatMessage, ContentPart } from "./types";

export interface AgentSampling {
  temperature?: number;
  maxTokens?: number;
  logprobs?: boolean;
}

/** The agent as a model: the run's agent prompt as system message, then the dialogue. */
export class ModelAgent implements Agent {
  readonly kind = "model";
  readonly name: string;

  constructor(
    private readonly client: OpenAICompatibleClient,
    private readonly systemPrompt: string,
    private readonly sampling: AgentSampling = {},
  ) {
    this.name = formatServerSpec(client.spec);
  }

  async act(input: AgentTurnInput): Promise<AgentMove> {
    const messages: ChatMessage[] = [{ role: "system", content: this.systemPrompt }, ...input.dialogue];
    const result = await this.client.chat({
      messages,
      temperature: this.sampling.temperature ?? 1.0,
      maxTokens: this.sampling.maxTokens ?? 1024,
      logprobs: this.sampling.logprobs,
      signal: input.signal,
    });
    return {
      text: result.text,
      prompt: messages,
      usage: result.usage,
      logprobs: result.logprobs,
      waitMs: result.totalMs,
    };
  }
}

// The benchmark's simulator answers "No response." when its server rejects the request outright.
const REJECTED = "No response.";

async function ask(
  client: OpenAICompatibleClient,
  messages: ChatMessage[],
  stored: unknown,
  signal?: AbortSignal,
): Promise<SimulatorMove> {
  try {
    const result = await client.chat({ messages, temperature: 0, maxTokens: 4096, signal });
    return { text: result.text, prompt: stored, usage: result.usage, waitMs: result.totalMs };
  } catch (error) {
    if (error instanceof ModelServerError && error.status === 400) return { text: REJECTED, prompt: stored };
    throw error;
  }
}

/** Backend simulator: one prompt holding the description, the hidden information and the transcript. */
export class ModelCodeSimulator implements Simulator {
  readonly kind = "model";
  readonly name: string;

  constructor(
    private readonly client: OpenAICompatibleClient,
    private readonly template: string,
  ) {
    this.name = formatServerSpec(client.spec);
  }

  reply(input: SimulatorTurnInput): Promise<SimulatorMove> {
    const messages: ChatMessage[] = [
      { role: "system", content: "You are a helpful assistant." },
      {
        role: "user",
        content: fillPrompt(this.template, {
          problem_description: input.task.problemDescription,
          hidden_information: input.task.hiddenInformation ?? input.task.groundTruth,
          dialogue_history: formatDialogue(input.dialogue),
        }),
      },
    ];
    return ask(this.client, messages, messages, input.signal);
  }
}

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString("base64")}`;

/** Frontend simulator: a vision model shown the agent's render (or told there is none) and the target's. */
export class ModelDesignSimulator implements Simulator {
  readonly kind = "model";
  readonly name: string;

  constructor(
    private readonly client: OpenAICompatibleClient,
    private readonly template: string,
  ) {
    this.name = formatServerSpec(client.spec);
  }

  reply(input: SimulatorTurnInput): Promise<SimulatorMove> {
    if (!input.targetRender) throw new Error("the design simulator needs the target page's render");
    const parts = (withImages: boolean): ContentPart[] => {
      const image = (render: { id: string; png: Buffer }): ContentPart => ({
        type: "image_url",
        image_url: { url: withImages ? dataUrl(render.png) : `render:${render.id}` },
      });
      return [
        { type: "text", text: this.template },
        ...(input.agentRender
          ? [{ type: "text" as const, text: "First image: the page the agent made." }, image(input.agentRender)]
          : [{ type: "text" as const, text: "The agent showed no page this turn, so there is no first image." }]),
        { type: "text", text: "Next image: the page you want." },
        image(input.targetRender!),
      ];
    };
    // Stored with the images by reference: the renders are kept once, by id.
    return ask(
      this.client,
      [{ role: "user", content: parts(true) }],
      [{ role: "user", content: parts(false) }],
      input.signal,
    );
  }
}
