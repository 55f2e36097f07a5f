import type { DecodeEngine } from "../model/decode";
import { jsonFile, type WeightSource } from "../model/source";
import type { ModelTokenizer } from "../model/tokenizer";
import { generate, type GenerateOptions, type Generation } from "./generate";

// A chat model on this machine or in the tab: the conversation written by the model's own chat
// template (tokenizer_config.json), generated on a model runner, stopping at the model's end tokens
// (generation_config.json's and config.json's eos_token_id, and the tokenizer's eos_token).

export interface ChatMessage {
  role: string;
  content: string;
}

function ids(value: unknown): number[] {
  if (Number.isInteger(value)) return [value as number];
  if (Array.isArray(value)) return value.filter((v): v is number => Number.isInteger(v));
  return [];
}

/** Every id that ends a turn for this model. */
export async function endTokenIds(source: WeightSource, tokenizer: ModelTokenizer): Promise<number[]> {
  const generation = (await jsonFile(source, "generation_config.json")) as { eos_token_id?: unknown } | null;
  const config = (await jsonFile(source, "config.json")) as { eos_token_id?: unknown } | null;
  const named = tokenizer.endToken === undefined ? null : tokenizer.idOf(tokenizer.endToken);
  return [
    ...new Set([...ids(generation?.eos_token_id), ...ids(config?.eos_token_id), ...(named === null ? [] : [named])]),
  ].sort((a, b) => a - b);
}

export class LocalGenerator {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly engine: DecodeEngine,
    readonly tokenizer: ModelTokenizer,
    /** What a run records as the model: the hub id or folder it was opened from. */
    readonly model: string,
    readonly endTokens: number[],
  ) {
    if (!tokenizer.chatTemplate())
      throw new Error(
        `${model}: no chat_template.jinja and no chat_template in tokenizer_config.json, so a conversation cannot be written for it`,
      );
  }

  static async load(
    engine: DecodeEngine,
    tokenizer: ModelTokenizer,
    source: WeightSource,
    model: string,
  ): Promise<LocalGenerator> {
    return new LocalGenerator(engine, tokenizer, model, await endTokenIds(source, tokenizer));
  }

  /** The template the prompts are written in, for the record: the project's family name when it is one, else the model's own. */
  get template(): string {
    return this.tokenizer.templateFamily() ?? "model's own chat_template";
  }

  /** The prompt text and ids for a conversation, ending with the assistant's header. */
  prompt(messages: ChatMessage[]): { text: string; ids: number[] } {
    const text = this.tokenizer.applyChatTemplate(messages, true);
    return { text, ids: this.tokenizer.encodeText(text) };
  }

  /** The assistant's next message; one generation at a time (they share the runner's buffers). */
  chat(
    messages: ChatMessage[],
    options: Omit<GenerateOptions, "stopTokens">,
  ): Promise<Generation & { prompt: string }> {
    const work = async () => {
      const prompt = this.prompt(messages);
      return {
        ...(await generate(this.engine, this.tokenizer, prompt.ids, { ...options, stopTokens: this.endTokens })),
        prompt: prompt.text,
      };
    };
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }
}
