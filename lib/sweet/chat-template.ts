// Chat templates as strings: the policy's prompt as the model saw it (the published scripts work on
// these strings), and the tokens the critic's span is cut at. Two families: Llama 3 and ChatML (Qwen).

export type TemplateName = "llama3" | "chatml";
export const TEMPLATE_NAMES: readonly TemplateName[] = ["llama3", "chatml"];

export interface ChatTemplate {
  name: TemplateName;
  /** Ends a turn; the policy's end-of-sequence token in the exports. */
  endOfTurn: string;
  /** The empty assistant header after which the model writes its reply. */
  assistantHeader: string;
  /** How many tokens that header is (cut off the end of the critic's span). */
  assistantHeaderTokens: number;
  render(messages: Array<{ role: string; content: string }>): string;
}

const llama3: ChatTemplate = {
  name: "llama3",
  endOfTurn: "<|eot_id|>",
  assistantHeader: "<|start_header_id|>assistant<|end_header_id|>\n\n",
  assistantHeaderTokens: 4,
  render(messages) {
    return (
      "<|begin_of_text|>" +
      messages.map((m) => `<|start_header_id|>${m.role}<|end_header_id|>\n\n${m.content.trim()}<|eot_id|>`).join("") +
      this.assistantHeader
    );
  },
};

const chatml: ChatTemplate = {
  name: "chatml",
  endOfTurn: "<|im_end|>",
  assistantHeader: "<|im_start|>assistant\n",
  assistantHeaderTokens: 3,
  render(messages) {
    return messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join("") + this.assistantHeader;
  },
};

export function chatTemplate(name: TemplateName): ChatTemplate {
  return name === "llama3" ? llama3 : chatml;
}

/** A stored prompt (chat messages, text parts only) as one string. */
export function promptText(template: ChatTemplate, prompt: unknown): string {
  if (typeof prompt === "string") return prompt;
  if (!Array.isArray(prompt)) throw new Error("a turn's prompt is neither text nor chat messages");
  const messages = prompt.map((m: { role?: unknown; content?: unknown }) => ({
    role: String(m.role ?? "user"),
    content: typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.filter((p: { type?: string }) => p.type === "text").map((p: { text?: string }) => p.text ?? "").join("\n") : "",
  }));
  return template.render(messages);
}
