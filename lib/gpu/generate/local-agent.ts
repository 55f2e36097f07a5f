import type { LocalPlayer } from "../../colbench/run-config";
import type { Agent, AgentMove, AgentTurnInput } from "../../colbench/roles";
import type { LocalGenerator } from "./local-generator";

// The agent as a model generating in the playing process (`colbench run --agent local:MODEL`; the
// tab's in-browser agent opens its generator in the page): the run's agent prompt as system message,
// then the dialogue, in the model's own chat template. The model loads on the first turn.
//
// Seeds: each turn draws with the run's seed mixed with the conversation so far and with how many
// times this agent was asked that same conversation, so a rerun of the run draws the same turns and
// best-of-k samples of one task still differ.

export interface LocalSampling {
  temperature: number;
  maxTokens: number;
}

/** FNV-1a over the text's UTF-16 units: a seed from a conversation. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The seed one turn draws with: the run's seed mixed with the conversation (system message
 * included) and with how many times before the same conversation was asked (the in-tab agent asks
 * each once, so a tab that generates a turn again draws the same text).
 */
export function turnSeed(seed: number, messages: Array<{ role: string; content: string }>, times = 0): number {
  return (seed ^ hash(JSON.stringify(messages))) + times * 0x9e3779b1;
}

export class LocalAgent implements Agent {
  readonly kind = "model";
  readonly name: string;
  private generator: Promise<LocalGenerator> | null = null;
  private readonly asked = new Map<number, number>();

  constructor(
    private readonly spec: LocalPlayer["local"],
    private readonly systemPrompt: string,
    private readonly sampling: LocalSampling,
    private readonly open: (spec: LocalPlayer["local"]) => Promise<LocalGenerator>,
  ) {
    this.name = `local:${spec.model}`;
  }

  private load(): Promise<LocalGenerator> {
    this.generator ??= this.open(this.spec).catch((error: Error) => {
      this.generator = null;
      throw new Error(`local agent ${this.spec.model} (${this.spec.device}): ${error.message}`);
    });
    return this.generator;
  }

  async act(input: AgentTurnInput): Promise<AgentMove> {
    const started = performance.now();
    const generator = await this.load();
    const messages = [{ role: "system" as const, content: this.systemPrompt }, ...input.dialogue];
    const key = hash(JSON.stringify(messages));
    const times = this.asked.get(key) ?? 0;
    this.asked.set(key, times + 1);
    const seed = turnSeed(this.spec.seed, messages, times);
    const out = await generator.chat(messages, {
      maxNewTokens: this.sampling.maxTokens,
      sampling: {
        temperature: this.sampling.temperature,
        topP: this.spec.topP,
        seed,
      },
      signal: input.signal,
    });
    if (out.finish === "aborted") throw new Error("the turn was abandoned");
    return {
      // PostgreSQL's text holds no NUL character, which a byte-level tokenizer can produce: stored as U+FFFD.
      text: out.text.replaceAll("\u0000", "\uFFFD"),
      prompt: messages,
      usage: { promptTokens: out.promptTokens, completionTokens: out.ids.length },
      waitMs: performance.now() - started,
    };
  }
}
