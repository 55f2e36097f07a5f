import { Template } from "@huggingface/jinja";
import { Tokenizer } from "@huggingface/tokenizers";
import { CHAT_TEMPLATE_FILE, chatTemplateSource, type TemplateName } from "../../sweet/chat-template";
import { jsonFile, type WeightSource } from "./source";

// A model's tokenizer (tokenizer.json, run by @huggingface/tokenizers) and its chat template
// (tokenizer_config.json's Jinja, run by @huggingface/jinja). Text is encoded as an inference server
// encodes a completions prompt: with the tokenizer's own special tokens (Llama 3's <|begin_of_text|>).
// Each token's end in the text's UTF-8 bytes is known for byte-level BPE tokenizers (Llama 3, Qwen2,
// SmolLM2), which is what cutting a continuation off its prefix needs.

export interface Encoded {
  ids: number[];
  /** Token texts as servers report them (special tokens by their content). */
  tokens: string[];
  /** Each token's end in the text's UTF-8 bytes (tokens the post-processor adds take no bytes). */
  ends: number[];
}

/** GPT-2's byte-level alphabet: byte → the character that stands for it in token strings. */
function byteLevelChars(): Map<string, number> {
  const printable = (b: number) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const map = new Map<string, number>();
  let extra = 0;
  for (let b = 0; b < 256; b++) map.set(String.fromCodePoint(printable(b) ? b : 256 + extra++), b);
  return map;
}

const utf8 = new TextEncoder();

export class ModelTokenizer {
  private readonly added: Map<number, string>;
  private readonly byteLevel: boolean;
  private readonly chars = byteLevelChars();

  static async load(source: WeightSource): Promise<ModelTokenizer> {
    const json = await jsonFile(source, "tokenizer.json");
    if (!json) throw new Error(`${source.where}: no tokenizer.json`);
    const config = ((await jsonFile(source, "tokenizer_config.json")) ?? {}) as Record<string, unknown>;
    const sidecar = await source.text(CHAT_TEMPLATE_FILE);
    try {
      return new ModelTokenizer(json as Record<string, unknown>, config, source.where, sidecar);
    } catch (error) {
      throw new Error(`${source.where}/tokenizer.json: ${(error as Error).message}`);
    }
  }

  private readonly tokenizer: Tokenizer;

  constructor(
    json: Record<string, unknown>,
    private readonly config: Record<string, unknown>,
    private readonly where = "tokenizer",
    /** chat_template.jinja beside the config, when the folder has one. */
    private readonly templateFile: string | null = null,
  ) {
    this.tokenizer = new Tokenizer(json, config);
    this.added = new Map([...this.tokenizer.get_added_tokens_decoder()].map(([id, t]) => [id, t.content]));
    const decoder = json.decoder as { type?: string; decoders?: Array<{ type?: string }> } | null;
    this.byteLevel = decoder?.type === "ByteLevel" || Boolean(decoder?.decoders?.some((d) => d.type === "ByteLevel"));
  }

  encode(text: string): Encoded {
    const withSpecials = this.tokenizer.encode(text).ids;
    const plain = this.tokenizer.encode(text, { add_special_tokens: false }).ids;
    // Where the text's own tokens sit among those the post-processor added around them.
    let lead = 0;
    while (lead + plain.length <= withSpecials.length && plain.some((id, i) => withSpecials[lead + i] !== id)) lead++;
    if (lead + plain.length > withSpecials.length) lead = 0;
    const tokens = withSpecials.map((id) => this.added.get(id) ?? this.tokenizer.id_to_token(id) ?? "");
    const ends: number[] = [];
    let at = 0;
    withSpecials.forEach((id, i) => {
      const own = i >= lead && i < lead + plain.length;
      if (own) at += this.byteLength(id, tokens[i]!);
      ends.push(at);
    });
    return { ids: withSpecials, tokens, ends };
  }

  private byteLength(id: number, token: string): number {
    const special = this.added.get(id);
    if (special !== undefined) return utf8.encode(special).length;
    if (!this.byteLevel)
      throw new Error(`${this.where}: token offsets need a byte-level tokenizer (Llama 3, Qwen2, SmolLM2)`);
    // Each character of a byte-level token stands for one byte.
    let n = 0;
    for (const ch of token) n += this.chars.has(ch) ? 1 : utf8.encode(ch).length;
    return n;
  }

  /** A chat template's output as ids: its text only, since the template writes any BOS it wants (as servers encode a chat prompt). */
  encodeText(text: string): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: false }).ids;
  }

  /** The id of a token given by its text (a special token's content), or null when it has none. */
  idOf(token: string): number | null {
    return this.tokenizer.token_to_id(token) ?? null;
  }

  /** tokenizer_config.json's eos_token, if any. */
  get endToken(): string | undefined {
    return this.special("eos_token");
  }

  decode(ids: number[]): string {
    return this.tokenizer.decode(ids, { skip_special_tokens: false });
  }

  private special(name: string): string | undefined {
    const v = this.config[name];
    if (typeof v === "string") return v;
    if (v && typeof v === "object" && typeof (v as { content?: unknown }).content === "string")
      return (v as { content: string }).content;
    return undefined;
  }

  /** The model's chat template (chat_template.jinja, else tokenizer_config.json's), or null when it has none. */
  chatTemplate(): string | null {
    return this.templateFile ?? chatTemplateSource(this.config);
  }

  /** The conversation as the model's own chat template writes it. */
  applyChatTemplate(messages: Array<{ role: string; content: string }>, addGenerationPrompt = true): string {
    const source = this.chatTemplate();
    if (!source)
      throw new Error(`${this.where}: neither ${CHAT_TEMPLATE_FILE} nor tokenizer_config.json's chat_template`);
    return new Template(source).render({
      messages,
      add_generation_prompt: addGenerationPrompt,
      bos_token: this.special("bos_token") ?? "",
      eos_token: this.special("eos_token") ?? "",
    });
  }

  /**
   * Which of the project's chat template families (lib/sweet/chat-template.ts) this model's own
   * template writes, found by rendering a probe conversation with it; null when neither.
   */
  templateFamily(): TemplateName | null {
    if (!this.chatTemplate()) return null;
    const text = this.applyChatTemplate([
      { role: "user", content: "probe" },
      { role: "assistant", content: "reply" },
      { role: "user", content: "probe" },
    ]);
    if (text.includes("<|start_header_id|>user<|end_header_id|>") && text.includes("<|eot_id|>")) return "llama3";
    if (text.includes("<|im_start|>user\n") && text.includes("<|im_end|>")) return "chatml";
    return null;
  }
}
