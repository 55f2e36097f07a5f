import { readFileSync } from "node:fs";
import path from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import { resolveModel } from "../hub/resolve";
import {
  CHAT_TEMPLATE_FILE,
  chatTemplate,
  chatTemplateSource,
  isTemplateName,
  specialTokensOf,
  type ChatTemplate,
  type RecordedTemplate,
} from "./chat-template";

// `--template`: a named fallback, or a model's own chat template from a hub id or a folder (its
// tokenizer_config.json; tokenizer.json, where present, counts the generation prompt's tokens).

/** The day a run's templates render dates with: the run's own start (UTC), so its strings never change. */
export function templateDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export async function loadTemplate(ref: string, options: { date?: string } = {}): Promise<ChatTemplate> {
  if (isTemplateName(ref)) return chatTemplate(ref);
  const resolved = await resolveModel(ref, {
    files: ["tokenizer_config.json"],
    optional: ["tokenizer.json", CHAT_TEMPLATE_FILE],
  });
  const configFile = path.join(resolved.folder, "tokenizer_config.json");
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(readFileSync(configFile, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${configFile}: ${(error as Error).message}`);
  }
  // transformers (4.47 on) prefers the template file beside the config to the config's own field.
  const source = resolved.files.includes(CHAT_TEMPLATE_FILE)
    ? readFileSync(path.join(resolved.folder, CHAT_TEMPLATE_FILE), "utf8")
    : chatTemplateSource(config);
  if (!source)
    throw new Error(
      `${configFile}: no chat_template, and no ${CHAT_TEMPLATE_FILE} beside it (name a fallback instead: --template ${"llama3"} or chatml)`,
    );
  const recorded: RecordedTemplate = {
    ref,
    chatTemplate: source,
    specialTokens: specialTokensOf(config),
    date: options.date ?? templateDay(new Date()),
  };
  const template = chatTemplate(recorded);
  let headerTokens: number | null = null;
  if (resolved.files.includes("tokenizer.json")) {
    const tokenizer = new Tokenizer(
      JSON.parse(readFileSync(path.join(resolved.folder, "tokenizer.json"), "utf8")) as Record<string, unknown>,
      config,
    );
    headerTokens = tokenizer.encode(template.assistantHeader, { add_special_tokens: false }).ids.length;
  }
  return chatTemplate({ ...template.recorded, assistantHeaderTokens: headerTokens });
}
