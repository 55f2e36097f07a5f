import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { chatTemplate, promptText, renderJinja, specialTokensOf, chatTemplateSource } from "./chat-template";
import { loadTemplate } from "./model-template";
import { strftime } from "./strftime";

// Parity with transformers' apply_chat_template(..., add_generation_prompt=True): fixture
// templates written for this test, rendered once by transformers on a fixed day
// (fixtures/chat-templates/make_expected.py), and here by the studio on the same day.

const dir = new URL("./fixtures/chat-templates/", import.meta.url);
const conversations = JSON.parse(readFileSync(new URL("messages.json", dir), "utf8")) as Array<
  Array<{ role: string; content: string }>
>;
const expected = JSON.parse(readFileSync(new URL("expected.json", dir), "utf8")) as {
  day: string;
  fixtures: Record<
    string,
    {
      rendered: Array<{ text?: string; error?: string }>;
      generationPrompt: string;
      generationPromptTokens: number;
      eos: string;
    }
  >;
};

const whitespace = JSON.parse(readFileSync(new URL("whitespace-expected.json", dir), "utf8")) as {
  day: string;
  fixtures: Record<
    string,
    Array<{ messages: Array<{ role: string; content: string }>; text?: string; error?: string }>
  >;
};

describe("chat templates from the model itself", () => {
  // Python's str.strip and JavaScript's trim strip other characters (fixtures/chat-templates/make_whitespace.py).
  for (const [name, cases] of Object.entries(whitespace.fixtures)) {
    it(`${name}: | trim and .strip() strip what Python strips (U+0085, U+001C..U+001F yes; U+FEFF no), as transformers renders`, async () => {
      const template = chatTemplate(
        (await loadTemplate(fileURLToPath(new URL(name, dir)), { date: whitespace.day })).recorded,
      );
      expect(cases.length).toBeGreaterThanOrEqual(18);
      cases.forEach(({ messages, text }, i) =>
        expect(template.render(messages), `case ${i}: ${JSON.stringify(messages)}`).toBe(text),
      );
    });
  }

  it("the fixtures cover 20+ message lists each", () => {
    expect(conversations.length).toBeGreaterThanOrEqual(20);
    expect(Object.keys(expected.fixtures)).toHaveLength(3);
  });

  for (const [name, facts] of Object.entries(expected.fixtures)) {
    it(`${name}: byte-equal to transformers for every message list, errors where it raised`, () => {
      const config = JSON.parse(readFileSync(new URL(`${name}/tokenizer_config.json`, dir), "utf8")) as Record<
        string,
        unknown
      >;
      const source = chatTemplateSource(config)!;
      conversations.forEach((messages, i) => {
        const want = facts.rendered[i]!;
        const render = () =>
          renderJinja(source, messages, {
            specialTokens: specialTokensOf(config),
            date: new Date(`${expected.day}T12:00:00Z`),
          });
        if (want.error !== undefined) expect(render, `message list ${i}`).toThrow(/chat template/);
        else expect(render(), `message list ${i}`).toBe(want.text);
      });
    });

    it(`${name}: --template FOLDER gives the generation prompt, its token count and the eos token from the tokenizer`, async () => {
      const template = await loadTemplate(fileURLToPath(new URL(name, dir)), { date: expected.day });
      expect(template.assistantHeader).toBe(facts.generationPrompt);
      expect(template.assistantHeaderTokens).toBe(facts.generationPromptTokens);
      expect(template.endOfTurn).toBe(facts.eos);
      // The recorded template renders the same strings again without the folder.
      const again = chatTemplate(template.recorded);
      const ok = conversations.findIndex((_, i) => facts.rendered[i]!.text !== undefined);
      expect(again.render(conversations[ok]!)).toBe(facts.rendered[ok]!.text);
      expect(promptText(again, conversations[ok])).toBe(facts.rendered[ok]!.text);
    });
  }

  it("strftime in the C locale, as Python's on Linux", () => {
    const day = new Date("2026-03-07T09:05:03Z");
    expect(strftime(day, "%d %b %Y")).toBe("07 Mar 2026");
    expect(strftime(day, "%-d %B %y, %A %a %j %H:%M:%S %I%p %%")).toBe("7 March 26, Saturday Sat 066 09:05:03 09AM %");
  });

  it("the named fallbacks stay as they were", () => {
    expect(chatTemplate("llama3").endOfTurn).toBe("<|eot_id|>");
    expect(chatTemplate("chatml").assistantHeader).toBe("<|im_start|>assistant\n");
  });
});
