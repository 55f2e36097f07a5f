import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ChatTemplateError, chatTemplate } from "./chat-template";
import { criticPrompt, criticScore } from "./critic";
import { loadTemplate } from "./model-template";

// Parity with transformers on real published templates (fixtures/chat-templates/real, sources in its
// README), expected strings made once by fixtures/chat-templates/make_templates.py. Mistral ignores
// add_generation_prompt and Phi-3 closes a render without it with eos_token; both must still give the
// prompt a server is sent and the critic's span, cut at character offsets of the prompt.

type Critic = {
  candidate: string;
  groundTruth: boolean;
  prompt: string;
  begin: number;
  end: number;
  span: string;
  continued?: string | { error: string };
};
type Case = {
  messages: Array<{ role: string; content: string }>;
  text?: string;
  without?: string;
  error?: string;
  critic?: Critic[];
};
const dir = new URL("./fixtures/chat-templates/", import.meta.url);
const expected = JSON.parse(readFileSync(new URL("templates-expected.json", dir), "utf8")) as {
  day: string;
  groundTruthPrefix: string;
  templates: Record<string, { generationPrompt: string; turnEnd: string; cases: Case[] }>;
};
const GROUND_TRUTH = "def f(x):\n    return x + 1";

async function load(name: string) {
  return loadTemplate(fileURLToPath(new URL(`real/${name}`, dir)), { date: expected.day });
}

describe("real published chat templates, as transformers renders them", () => {
  it("covers Mistral, Phi-3, Llama 3.1, Qwen2.5 and Gemma", () => {
    expect(Object.keys(expected.templates).sort()).toEqual(
      [
        "gemma-2-2b-it",
        "llama-3.1-8b-instruct",
        "mistral-7b-instruct-v0.3",
        "mistral-nemo-instruct-2407",
        "phi-3-mini-4k-instruct",
        "qwen2.5-7b-instruct",
      ].sort(),
    );
    expect(expected.groundTruthPrefix).toBe(`In light that the final answer is: ${GROUND_TRUTH}.`);
  });

  for (const [name, facts] of Object.entries(expected.templates)) {
    it(`${name}: generation prompt ${JSON.stringify(facts.generationPrompt)} and turn end ${JSON.stringify(facts.turnEnd)}, recorded and read back`, async () => {
      const template = await load(name);
      expect(template.assistantHeader).toBe(facts.generationPrompt);
      expect(template.turnEnd).toBe(facts.turnEnd);
      const again = chatTemplate(template.recorded);
      expect([again.assistantHeader, again.turnEnd]).toEqual([facts.generationPrompt, facts.turnEnd]);
    });

    it(`${name}: every prompt byte-equal to apply_chat_template(add_generation_prompt=True), the template's own errors reported`, async () => {
      const template = await load(name);
      expect(facts.cases.length).toBeGreaterThanOrEqual(24);
      facts.cases.forEach((c, i) => {
        const label = `case ${i}: ${JSON.stringify(c.messages)}`;
        if (c.error !== undefined) {
          let thrown: unknown;
          try {
            template.render(c.messages);
          } catch (error) {
            thrown = error;
          }
          expect(thrown, label).toBeInstanceOf(ChatTemplateError);
          expect((thrown as ChatTemplateError).templateMessage, label).toBe(c.error);
          expect((thrown as Error).message, label).toContain(`"${c.error}"`);
          expect((thrown as Error).message, label).toMatch(/--template/);
        } else {
          expect(template.render(c.messages), label).toBe(c.text);
        }
      });
    });

    it(`${name}: the critic's prompt and span equal those cut from transformers' renders`, async () => {
      const template = await load(name);
      let checked = 0;
      for (const c of facts.cases) {
        for (const k of c.critic ?? []) {
          const prompt = criticPrompt(template, k.groundTruth ? GROUND_TRUTH : null, c.text!, k.candidate);
          expect(prompt).toBe(k.prompt);
          expect(prompt.slice(k.begin, k.end)).toBe(k.span);
          // One token per character carrying its offset: the score sums exactly the span's characters.
          const tokens = [...prompt].map((token, start) => ({ token, start, logprob: -(start + 1) / 1024 }));
          const want = tokens.filter((t) => t.start >= k.begin && t.start < k.end).reduce((a, t) => a + t.logprob, 0);
          expect(criticScore(template, tokens, { prompt, sum: true })).toBe(want);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(0);
    });
  }

  // Where transformers' continue_final_message places a reply, the studio's prompt plus candidate is the
  // same string. Mistral's templates differ from it by their own design: v0.3 writes a space before a
  // reply that is not in the prompt it sends, and Nemo moves the system text to whichever user turn is last.
  for (const name of ["phi-3-mini-4k-instruct", "llama-3.1-8b-instruct", "qwen2.5-7b-instruct", "gemma-2-2b-it"]) {
    it(`${name}: the prompt sent plus a candidate is transformers' continue_final_message render`, async () => {
      const template = await load(name);
      const continued = expected.templates[name]!.cases.flatMap((c) =>
        (c.critic ?? []).filter((k) => k.continued !== undefined).map((k) => ({ c, k })),
      );
      expect(continued.length).toBeGreaterThan(0);
      for (const { c, k } of continued) expect(template.render(c.messages) + k.candidate).toBe(k.continued);
    });
  }

  it("Gemma refuses ColBench's system turn with its own words and says what to use instead", async () => {
    const template = await load("gemma-2-2b-it");
    expect(() =>
      template.render([
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ]),
    ).toThrow(
      /gemma-2-2b-it refused the conversation: "System role not supported" \(the template's own raise_exception\)\. .*--template whose chat template takes a system turn/,
    );
  });
});
