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
  /** The empty assistant header after which the model writes its reply (the generation prompt; empty where the template has none, as Mistral's). */
  assistantHeader: string;
  /** What closes the turn before a reply (Llama's `<|eot_id|>`, Phi-3's `<|end|>`, Mistral's `[/INST]`): the critic's span starts after its last occurrence. */
  turnEnd: string;
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
  turnEnd?: string;
  /** The day `strftime_now` and date variables render (YYYY-MM-DD, UTC). */
  date?: string;
}

const llama3: ChatTemplate = {
  name: "llama3",
  endOfTurn: "<|eot_id|>",
  assistantHeader: "<|start_header_id|>assistant<|end_header_id|>\n\n",
  assistantHeaderTokens: 4,
  turnEnd: "<|eot_id|>",
  render(messages) {
    return (
      "<|begin_of_text|>" +
      messages
        .map(
          (m) =>
            `<|start_header_id|>${m.role}<|end_header_id|>\n\n${PYTHON_STRIP_GLOBALS.__python_strip!(m.content)}<|eot_id|>`,
        )
        .join("") +
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
  turnEnd: "<|im_end|>",
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
    else if (v && typeof v === "object" && typeof (v as { content?: unknown }).content === "string")
      out[name] = (v as { content: string }).content;
  }
  const extra = config.additional_special_tokens;
  if (Array.isArray(extra)) out.additional_special_tokens = extra as unknown as string;
  return out;
}

/**
 * Where transformers (4.47 on) saves a model's chat template, beside tokenizer_config.json; when
 * both are there it uses this file, so the studio does too.
 */
export const CHAT_TEMPLATE_FILE = "chat_template.jinja";

/** tokenizer_config.json's `chat_template` (a string, or named templates of which "default" is used). */
export function chatTemplateSource(config: Record<string, unknown>): string | null {
  const t = config.chat_template;
  if (typeof t === "string") return t;
  if (Array.isArray(t)) {
    const entries = t as Array<{ name?: unknown; template?: unknown } | undefined>;
    const named = entries.find((e) => e?.name === "default") ?? entries[0];
    return typeof named?.template === "string" ? named.template : null;
  }
  return null;
}

/**
 * Renders a Jinja chat template as transformers does: the special tokens by name, the messages,
 * `add_generation_prompt`, `raise_exception` (throws a ChatTemplateError with the template's message) and
 * `strftime_now` on the given day (UTC) rather than the clock, so a render can be repeated.
 */
export function renderJinja(
  source: string,
  messages: ChatMessageText[],
  options: { specialTokens?: Record<string, string>; addGenerationPrompt?: boolean; date?: Date } = {},
): string {
  return renderParsed(
    parseTemplate(source),
    "",
    messages,
    options.specialTokens ?? {},
    options.addGenerationPrompt ?? true,
    options.date ?? new Date(),
  );
}

/**
 * A template that refused a conversation through its own `raise_exception` (Gemma's "System role not
 * supported", Mistral's alternation rule). The message names the template's words and what to do, so a
 * step reports it instead of failing somewhere inside the renderer.
 */
export class ChatTemplateError extends Error {
  constructor(
    readonly ref: string,
    readonly templateMessage: string,
    messages: ChatMessageText[],
  ) {
    super(
      `chat template${ref ? ` ${ref}` : ""} refused the conversation: "${templateMessage}" (the template's own raise_exception). ${ChatTemplateError.advice(templateMessage, messages)}`,
    );
    this.name = "ChatTemplateError";
  }

  static advice(templateMessage: string, messages: ChatMessageText[]): string {
    if (messages[0]?.role === "system" && /system/i.test(templateMessage)) {
      return "ColBench's agent prompts begin with a system message, which this template does not accept: use a --template whose chat template takes a system turn (a Llama 3.x, Qwen2.5 or Phi-3 model's, or the llama3 or chatml fallback).";
    }
    return `The messages' roles are ${messages.map((m) => m.role).join(", ")}: use a --template whose chat template accepts them in that order.`;
  }
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
function renderParsed(
  template: Template,
  ref: string,
  messages: ChatMessageText[],
  specialTokens: Record<string, string>,
  addGenerationPrompt: boolean,
  date: Date,
): string {
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
      throw new ChatTemplateError(ref, String(message), messages);
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
  const render = (messages: ChatMessageText[], addGenerationPrompt: boolean) =>
    renderParsed(parsed, spec.ref, messages, specialTokens, addGenerationPrompt, date);
  const endOfTurn = specialTokens.eos_token;
  if (!endOfTurn)
    throw new Error(
      `chat template ${spec.ref}: the tokenizer names no eos_token (the end-of-turn token the critic's span and the exports need)`,
    );
  let header = spec.assistantHeader;
  let turnEnd = spec.turnEnd;
  if (header === undefined || turnEnd === undefined) {
    const shape = templateShape(render, specialTokens);
    header ??= shape.generationPrompt;
    turnEnd ??= shape.turnEnd || endOfTurn;
  }
  return {
    name: spec.ref,
    endOfTurn,
    assistantHeader: header,
    assistantHeaderTokens: spec.assistantHeaderTokens ?? null,
    turnEnd,
    render: (messages) => render(messages, true),
    recorded: { ...spec, assistantHeader: header, turnEnd },
  };
}

const PROBE = "probe";

/**
 * What `add_generation_prompt=True` adds to a conversation, and what closes the turn before it, as
 * transformers' renders of one user turn show them. Three shapes exist among published templates:
 * the prompt is a pure addition (Llama, Qwen, Gemma); the render without it closes the conversation
 * with a special token the prompt replaces (Phi-3 appends `eos_token`); or the template ignores the
 * flag (Mistral), so the reply follows the conversation directly and the prompt is empty. In every
 * shape the render with the flag, the prompt a server is sent, ends with the generation prompt.
 */
export function templateShape(
  render: (messages: ChatMessageText[], addGenerationPrompt: boolean) => string,
  specialTokens: Record<string, string> = {},
): { generationPrompt: string; turnEnd: string } {
  const probe = [{ role: "user", content: PROBE }];
  const withPrompt = render(probe, true);
  const without = render(probe, false);
  let conversation: string | null = null;
  if (withPrompt.startsWith(without)) conversation = without;
  else {
    const closing = Object.values(specialTokens).find(
      (t) => typeof t === "string" && t && without.endsWith(t) && withPrompt.startsWith(without.slice(0, -t.length)),
    );
    if (closing) conversation = without.slice(0, -closing.length);
  }
  if (conversation === null) {
    throw new Error(
      "the chat template's render with add_generation_prompt neither extends the render without it nor replaces a closing special token of it; the critic's span cannot be placed",
    );
  }
  const generationPrompt = withPrompt.slice(conversation.length);
  const at = conversation.lastIndexOf(PROBE);
  const turnEnd = at < 0 ? "" : conversation.slice(at + PROBE.length).replace(/\s+$/, "");
  return { generationPrompt, turnEnd };
}

/** What `add_generation_prompt` appends (see templateShape): empty for a template that ignores it. */
export function generationPrompt(
  render: (messages: ChatMessageText[], addGenerationPrompt: boolean) => string,
  specialTokens: Record<string, string> = {},
): string {
  return templateShape(render, specialTokens).generationPrompt;
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
    role: typeof m.role === "string" ? m.role : "user",
    content:
      typeof m.content === "string"
        ? m.content
        : Array.isArray(m.content)
          ? m.content
              .filter((p: { type?: string }) => p.type === "text")
              .map((p: { text?: string }) => p.text ?? "")
              .join("\n")
          : "",
  }));
}
