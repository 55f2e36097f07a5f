// The ColBench protocol's rules as pure functions: markers, limits and what counts as a message,
// an answer or an HTML proposal. Everything here reproduces the benchmark's behaviour exactly.

export const ANSWER_MARKER = "I WANT TO ANSWER:";
export const OUTPUT_MARKER = "OUTPUT:";
/** Agent turns per episode; the 10th ends the episode whatever it says. */
export const MAX_AGENT_TURNS = 10;

/**
 * The longest message a person may send from a seat, code or page included, unless a run sets its
 * own: about 5,000 tokens, which fits the context of the models the benchmark is run with and is
 * three times the longest official answer (6,294 characters).
 */
export const MESSAGE_CHAR_LIMIT = 20_000;

export interface AgentOutput {
  /** What counts as the agent's message: after the first OUTPUT:, up to a second one if any. */
  content: string;
  /** The raw text, cut at a second OUTPUT: marker as the benchmark stores it. */
  raw: string;
}

export function splitAgentOutput(text: string): AgentOutput {
  if (!text.includes(OUTPUT_MARKER)) return { content: text, raw: text };
  const parts = text.split(OUTPUT_MARKER);
  return { content: parts[1] ?? "", raw: parts.slice(0, 2).join(OUTPUT_MARKER) };
}

export function wantsToAnswer(content: string): boolean {
  return content.includes(ANSWER_MARKER);
}

/** Backend final answer: what lies after the first marker (up to a second one), else the whole message. */
export function extractAnswer(content: string): string {
  return wantsToAnswer(content) ? (content.split(ANSWER_MARKER)[1] ?? "") : content;
}

// The benchmark points every random Unsplash image and every plain picsum size at picsum's image 48.
const UNSPLASH_RANDOM = /https:\/\/source\.unsplash\.com\/random\/(\d+)x(\d+)\/\?[\w=]+/g;
const PICSUM_SIZE = /https:\/\/picsum\.photos\/(\d+)\/(\d+)/g;

export function normalizeImageUrls(text: string): string {
  return text
    .replace(UNSPLASH_RANDOM, (_m, w: string, h: string) => `https://picsum.photos/id/48/${w}/${h}`)
    .replace(PICSUM_SIZE, (_m, w: string, h: string) => `https://picsum.photos/id/48/${w}/${h}`);
}

/** Frontend proposal: the first <html ...>...</html> block, else the first <body ...>...</body>; null if neither. */
export function extractHtml(content: string): string | null {
  const text = normalizeImageUrls(content);
  // Lazy and dot-all, as the benchmark's regular expressions are.
  const html = /<html.*?>.*?<\/html>/s.exec(text);
  if (html) return html[0];
  const body = /<body.*?>.*?<\/body>/s.exec(text);
  return body ? body[0] : null;
}

export type DialogueRole = "user" | "assistant";

export interface DialogueMessage {
  role: DialogueRole;
  content: string;
}

/** The transcript the backend simulator reads: "role:content" blocks, ending with the agent's cue. */
export function formatDialogue(messages: readonly DialogueMessage[]): string {
  return messages.map((m) => `${m.role}:${m.content}\n\n\n\n`).join("") + "agent:";
}

/** Cuts by characters (code points), as Python's slicing does, not by UTF-16 units. */
export function cutReply(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return Array.from(text).slice(0, limit).join("");
}
