import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ModelTokenizer } from "../gpu/model/tokenizer";
import { folderSource } from "../gpu/node/folder-source";
import { loadTemplate } from "./model-template";

// A model saved by transformers 4.47 or later keeps its chat template in chat_template.jinja beside
// tokenizer_config.json; where both are present transformers uses the file. So must the studio,
// in both places it reads a template: `--template FOLDER` (SWEET-RL steps) and the GPU tokenizer.

const FIXTURE = path.join(import.meta.dirname, "..", "gpu", "fixtures", "llama-tiny");
const INLINE = "{% for m in messages %}inline {{ m.role }}: {{ m.content }}\n{% endfor %}";
const FILE = "{% for m in messages %}file <{{ m.role }}> {{ m.content }}\n{% endfor %}";
const made: string[] = [];

/** A copy of the tiny Llama's tokenizer with the given inline template and template file. */
function folder(inline: string | null, file: string | null): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-template-file-"));
  made.push(dir);
  for (const name of ["config.json", "tokenizer.json"]) fs.copyFileSync(path.join(FIXTURE, name), path.join(dir, name));
  const config = JSON.parse(fs.readFileSync(path.join(FIXTURE, "tokenizer_config.json"), "utf8")) as Record<
    string,
    unknown
  >;
  if (inline === null) delete config.chat_template;
  else config.chat_template = inline;
  fs.writeFileSync(path.join(dir, "tokenizer_config.json"), JSON.stringify(config));
  if (file !== null) fs.writeFileSync(path.join(dir, "chat_template.jinja"), file);
  return dir;
}

afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

const messages = [{ role: "user", content: "hello" }];

describe("chat_template.jinja beside tokenizer_config.json", () => {
  it("wins over the inline template, for --template and for the GPU tokenizer", async () => {
    const dir = folder(INLINE, FILE);
    expect((await loadTemplate(dir)).recorded.chatTemplate).toBe(FILE);
    expect((await ModelTokenizer.load(folderSource(dir))).applyChatTemplate(messages, false)).toBe(
      "file <user> hello\n",
    );
  });

  it("is enough alone, and the inline template is read where there is no file", async () => {
    const alone = folder(null, FILE);
    expect((await loadTemplate(alone)).recorded.chatTemplate).toBe(FILE);
    const inline = folder(INLINE, null);
    expect((await loadTemplate(inline)).recorded.chatTemplate).toBe(INLINE);
    expect((await ModelTokenizer.load(folderSource(inline))).applyChatTemplate(messages, false)).toBe(
      "inline user: hello\n",
    );
  });

  it("names both places when neither holds a template", async () => {
    const none = folder(null, null);
    await expect(loadTemplate(none)).rejects.toThrow(/no chat_template, and no chat_template\.jinja beside it/);
    const tokenizer = await ModelTokenizer.load(folderSource(none));
    expect(() => tokenizer.applyChatTemplate(messages)).toThrow(/neither chat_template\.jinja nor tokenizer_config/);
  });
});
