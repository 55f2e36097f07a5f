import { Environment, Interpreter, Template } from "@huggingface/jinja";
import { strftime } from "./strftime";
import { PYTHON_STRIP_GLOBALS, usePythonStrip } from "./python-strip";

// Chat templates as strings: the policy's prompt as the model saw it (the published scripts work on
// these strings), and where the critic's span is cut. A template is the model's own (its
// tokenizer_config.json `chat_template`, rendered as transformers' `apply_chat_template(...,
// add_generation_prompt=True)` renders it) or, when no tokenizer is given, one of two named
// fallbacks written by hand: Llama 3 (3.0, without 3.1's dated system preamble) and ChatML.

export type TemplateName = "llama3" | "chatml";
export const TEMPLATE_NAMES: readonly TemplateName[] = ["llama3", "chatml"];

export interface ChatMessageText {
  role: string;
  content: string;
}

export interface ChatTemplate {
  /** A fallback's name, or the hub id or folder the model's template came from. */
  name: string;
  /** Ends a turn: the tokenizer's eos token (the policy's end-of-sequence token in the exports). */
  endOfTurn: string;
  /** The empty assistant header after which the model writes its reply (the generation prompt). */
  assistantHeader: string;
  /** How many tokens that header is, by the tokenizer (null when the tokenizer itself was not at hand). */
  assistantHeaderTokens: number | null;
  render(messages: ChatMessageText[]): string;
  /** What a run records so that every later string is written with the same template. */
  recorded: RecordedTemplate;
}

/** A template as a run keeps it: enough to render again without the model at hand. */
export interface RecordedTemplate {
  /** "llama3" | "chatml" for a fallback; else the hub id or folder it was read from. */
  ref: string;
  /** The Jinja source (absent for a fallback). */
  chatTemplate?: string;
  /** The tokenizer's special tokens by name (bos_token, eos_token, ...), as transformers passes them to the template. */
  specialTokens?: Record<string, string>;
  assistantHeader?: string;
  assistantHeaderTokens?: number | null;
  /** The day `strftime_now` and date variables render (YYYY-MM-DD, UTC). */
  date?: string;
}

const llama3: ChatTemplate = {
  name: "llama3",
  endOfTurn: "<|eot_id|>",
  assistantHeader: "<|start_header_id|>assistant<|end_header_id|>\n\n",
  assistantHeaderTokens: 4,
  render(messages) {
    return (
      "<|begin_of_text|>" +
      messages.map((m) => `<|start_header_id|>${m.role}<|end_header_id|>\n\n${PYTHON_STRIP_GLOBALS.__python_strip!(m.content)}<|eot_id|>`).join("") +
      this.assistantHeader
    );
  },
  recorded: { ref: "llama3" },
};

const chatml: ChatTemplate = {
  name: "chatml",
  endOfTurn: "<|im_end|>",
  assistantHeader: "<|im_start|>assistant\n",
  assistantHeaderTokens: 3,
  render(messages) {
    return messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join("") + this.assistantHeader;
  },
  recorded: { ref: "chatml" },
};

export function isTemplateName(name: string): name is TemplateName {
  return (TEMPLATE_NAMES as readonly string[]).includes(name);
}

/** A named fallback, or a recorded model template rendered again. */
export function chatTemplate(spec: TemplateName | RecordedTemplate): ChatTemplate {
  if (typeof spec === "string") return spec === "llama3" ? llama3 : chatml;
  if (!spec.chatTemplate) return chatTemplate(isTemplateName(spec.ref) ? spec.ref : "llama3");
  return jinjaTemplate(spec as RecordedTemplate & { chatTemplate: string });
}

/** The special tokens of a tokenizer_config.json by name, as transformers hands them to a template. */
export function specialTokensOf(config: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ["bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"]) {
    const v = config[name];
    if (typeof v === "string") out[name] = v;
    else if (v && typeof v === "object" && typeof (v as { content?: unknown }).content === "string") out[name] = (v as { content: string }).content;
  }
  const extra = config.additional_special_tokens;
  if (Array.isArray(extra)) out.additional_special_tokens = extra as unknown as string;
  return out;
}

/** tokenizer_config.json's `chat_template` (a string, or named templates of which "default" is used). */
export function chatTemplateSource(config: Record<string, unknown>): string | null {
  const t = config.chat_template;
  if (typeof t === "string") return t;
  if (Array.isArray(t)) {
    const named = (t as Array<{ name?: string; template?: unknown }>).find((e) => e.name === "default") ?? t[0];
    return typeof named?.template === "string" ? named.template : null;
  }
  return null;
}

/**
 * Renders a Jinja chat template as transformers does: the special tokens by name, the messages,
 * `add_generation_prompt`, `raise_exception` (throws with the template's message) and
 * `strftime_now` on the given day (UTC) rather than the clock, so a render can be repeated.
 */
export function renderJinja(source: string, messages: ChatMessageText[], options: { specialTokens?: Record<string, string>; addGenerationPrompt?: boolean; date?: Date } = {}): string {
  return renderParsed(parseTemplate(source), "", messages, options.specialTokens ?? {}, options.addGenerationPrompt ?? true, options.date ?? new Date());
}

/** A template parsed, its strips made Python's (lib/sweet/python-strip.ts). */
function parseTemplate(source: string): Template {
  const template = new Template(source);
  usePythonStrip(template.parsed);
  return template;
}

/** Python's range(stop) / range(start, stop[, step]). */
function range(start: number, stop?: number, step = 1): number[] {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  const out: number[] = [];
  for (let i = from; step > 0 ? i < to : i > to; i += step) out.push(i);
  return out;
}

// The library's own render sets a `raise_exception` and a clock-and-locale `strftime_now` that cannot
// be replaced, so the environment is built here with transformers' globals.
function renderParsed(template: Template, ref: string, messages: ChatMessageText[], specialTokens: Record<string, string>, addGenerationPrompt: boolean, date: Date): string {
  const env = new Environment();
  const globals: Record<string, unknown> = {
    false: false,
    true: true,
    none: null,
    False: false,
    True: true,
    None: null,
    range,
    raise_exception: (message: unknown) => {
      throw new Error(`chat template${ref ? ` ${ref}` : ""}: ${String(message)}`);
    },
    strftime_now: (format: unknown) => strftime(date, String(format)),
    ...PYTHON_STRIP_GLOBALS,
    ...specialTokens,
    messages,
    add_generation_prompt: addGenerationPrompt,
  };
  for (const [name, value] of Object.entries(globals)) env.set(name, value);
  return new Interpreter(env).run(template.parsed).value as string;
}

function jinjaTemplate(spec: RecordedTemplate & { chatTemplate: string }): ChatTemplate {
  const date = spec.date ? new Date(`${spec.date}T12:00:00Z`) : new Date();
  const specialTokens = spec.specialTokens ?? {};
  // Parsed once: every critic prompt and export line of a run renders with it.
  const parsed = parseTemplate(spec.chatTemplate);
  const render = (messages: ChatMessageText[], addGenerationPrompt: boolean) => renderParsed(parsed, spec.ref, messages, specialTokens, addGenerationPrompt, date);
  const header = spec.assistantHeader ?? generationPrompt((m, g) => render(m, g));
  const endOfTurn = specialTokens.eos_token;
  if (!endOfTurn) throw new Error(`chat template ${spec.ref}: the tokenizer names no eos_token (the end-of-turn token the critic's span and the exports need)`);
  return {
    name: spec.ref,
    endOfTurn,
    assistantHeader: header,
    assistantHeaderTokens: spec.assistantHeaderTokens ?? null,
    render: (messages) => render(messages, true),
    recorded: { ...spec, assistantHeader: header },
  };
}

/** What `add_generation_prompt` appends: the same conversation rendered with and without it. */
export function generationPrompt(render: (messages: ChatMessageText[], addGenerationPrompt: boolean) => string): string {
  const probe = [{ role: "user", content: "probe" }];
  const withPrompt = render(probe, true);
  const without = render(probe, false);
  if (!withPrompt.startsWith(without) || withPrompt.length === without.length) {
    throw new Error("the chat template's generation prompt is not an addition at the end of the conversation; the critic's span cannot be cut");
  }
  return withPrompt.slice(without.length);
}

/** A stored prompt (chat messages, text parts only) as one string; a string is kept as it is. */
export function promptText(template: ChatTemplate, prompt: unknown): string {
  if (typeof prompt === "string") return prompt;
  return template.render(promptMessages(prompt));
}

/** A stored prompt's chat messages (text parts joined), or an error naming what it is instead. */
export function promptMessages(prompt: unknown): ChatMessageText[] {
  if (!Array.isArray(prompt)) throw new Error("a turn's prompt is neither text nor chat messages");
  return prompt.map((m: { role?: unknown; content?: unknown }) => ({
    role: String(m.role ?? "user"),
    content: typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.filter((p: { type?: string }) => p.type === "text").map((p: { text?: string }) => p.text ?? "").join("\n") : "",
  }));
}
