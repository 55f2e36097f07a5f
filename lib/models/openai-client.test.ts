import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backend } from "../benchmarks/backend";
import { startScriptedServer, type ScriptedServer } from "../../e2e/fixtures/scripted-model-server";
import { ModelServerError, OpenAICompatibleClient } from "./openai-client";
import { parseServerSpec } from "../colbench/server-spec";
import { HumanAgent, HumanSimulator } from "./human";
import { runEpisode, type TurnRecord } from "../colbench/episode";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({
    tasks: [{ problemDescription: "Write add.", groundTruth: "def add(a, b):\n    return a + b" }],
    slowMs: 300,
  });
});
afterAll(async () => server?.close());

const client = (model: string, options: ConstructorParameters<typeof OpenAICompatibleClient>[1] = {}) =>
  new OpenAICompatibleClient(parseServerSpec(`${server.url}#${model}`), { backoffMs: 5, ...options });

describe("server specs", () => {
  it("parses URL#MODEL and says what is wrong otherwise", () => {
    expect(parseServerSpec("http://h:8000/v1/#meta-llama/Llama-3.1-8B-Instruct")).toEqual({
      baseUrl: "http://h:8000/v1",
      model: "meta-llama/Llama-3.1-8B-Instruct",
    });
    expect(() => parseServerSpec("http://h:8000/v1", "--agent")).toThrow(/--agent: expected URL#MODEL/);
    expect(() => parseServerSpec("ftp://h#m", "--agent")).toThrow(/not an http\(s\) URL/);
  });
});

describe("the OpenAI-compatible client", () => {
  it("refuses chat samples whose log-probs cover part of them or hold a value above 0, and takes whole ones", async () => {
    const messages = [{ role: "user" as const, content: "Write add." }];
    const whole = await client("logprobs").sample({ messages }, 3);
    expect(whole).toHaveLength(3);
    expect(whole.every((s) => s.logprobs.every((t) => t.logprob <= 0))).toBe(true);
    await expect(client("half-logprobs").sample({ messages }, 3)).rejects.toThrow(
      /#half-logprobs \/chat\/completions: incomplete answer: sample 0: its \d+ scored tokens spell \d+ characters, not its text/,
    );
    await expect(client("positive-logprob").sample({ messages }, 2)).rejects.toThrow(
      /#positive-logprob \/chat\/completions: incomplete answer: sample 0: token \d+ has the log-prob 2.5/,
    );
    await expect(client("positive-logprob").sampleText("Write add.", 2)).rejects.toThrow(
      /#positive-logprob \/completions: incomplete answer: sample 0: token \d+ has the log-prob 2.5/,
    );
  });

  it("sends text and image parts, sampling settings and the API key", async () => {
    const seen: Array<{ headers: Headers; body: Record<string, unknown> }> = [];
    const spy: typeof fetch = async (input, init) => {
      if (typeof init?.body !== "string") throw new Error("the client sent a body that is not JSON text");
      seen.push({ headers: new Headers(init.headers), body: JSON.parse(init.body) as Record<string, unknown> });
      return fetch(input, init);
    };
    const echo = client("echo", { apiKey: "sk-test", fetch: spy });
    const image = `data:image/png;base64,${Buffer.from("png bytes").toString("base64")}`;
    const result = await echo.chat({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image_url", image_url: { url: image } },
          ],
        },
      ],
      temperature: 0,
      maxTokens: 64,
      stop: ["\n\n"],
    });
    expect(JSON.parse(result.text)).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: image } },
        ],
      },
    ]);
    expect(seen[0]!.headers.get("authorization")).toBe("Bearer sk-test");
    expect(seen[0]!.body).toMatchObject({
      model: "echo",
      temperature: 0,
      max_tokens: 64,
      stop: ["\n\n"],
      stream: false,
    });
    expect(result.usage?.promptTokens).toBeGreaterThan(0);
  });

  it("returns per-token log-probabilities of generated text when asked", async () => {
    const result = await client("ask-then-answer").chat({
      messages: [{ role: "user", content: "Write add." }],
      logprobs: true,
    });
    expect(result.logprobs?.length).toBeGreaterThan(0);
    // As vLLM: the end-of-sequence token the sample ended on is scored, though not in the text.
    expect(result.logprobs!.at(-1)!.token).toBe("<|eot_id|>");
    expect(
      result
        .logprobs!.slice(0, -1)
        .map((t) => t.token)
        .join(""),
    ).toBe(result.text);
    expect(result.logprobs!.every((t) => t.logprob < 0)).toBe(true);
  });

  it("scores a given text through the completions endpoint's echo, marking where the continuation starts", async () => {
    const scored = await client("logprobs").textLogprobs("The user asked a question. ", "The agent answered it.");
    expect(scored.tokens.length).toBeGreaterThan(3);
    const continuation = scored.tokens
      .slice(scored.continuationStart)
      .map((t) => t.token)
      .join("");
    expect(continuation.trim()).toBe("The agent answered it.");
    const again = await client("logprobs").textLogprobs("The user asked a question. ", "The agent answered it.");
    expect(again).toEqual(scored);
  });

  it("retries 500s and 429s, then succeeds; gives up with the reason after its retries", async () => {
    const flaky = await client("flaky:2").chat({ messages: [{ role: "user", content: "Write add." }] });
    expect(flaky.attempts).toBe(3);
    const limited = await client("rate-limited:1").chat({
      messages: [{ role: "user", content: "Write add, please." }],
    });
    expect(limited.attempts).toBe(2);
    // 5xx is an outage: waited out on the server's breaker until the give-up time, however many attempts.
    await expect(
      client("flaky:9", { giveUpMs: 1200 }).chat({ messages: [{ role: "user", content: "x" }] }),
    ).rejects.toThrow(/HTTP 500.*gave up after [2-9] attempts, 1\.\d s of outage/s);
  });

  it("does not retry a request the server rejects outright", async () => {
    const error = await client("no-such-model")
      .chat({ messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelServerError);
    expect((error as ModelServerError).status).toBe(404);
    expect((error as ModelServerError).message).not.toMatch(/gave up/);
  });

  it("times out a slow server and retries", async () => {
    const error = await client("slow:1000", { timeoutMs: 100, giveUpMs: 1500 })
      .chat({ messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/no answer within 100 ms.*gave up after [2-9] attempts.*of outage/s);
  });

  it("keeps at most `concurrency` requests in flight to one server", async () => {
    let inFlight = 0;
    let most = 0;
    const counting: typeof fetch = async (input, init) => {
      most = Math.max(most, ++inFlight);
      try {
        return await fetch(input, init);
      } finally {
        inFlight--;
      }
    };
    const slow = client("slow:100", { concurrency: 3, fetch: counting });
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => slow.chat({ messages: [{ role: "user", content: `question ${i}` }] })),
    );
    expect(most).toBe(3);
  });
});

describe("human sides", () => {
  it("wait for a person's move and show what they are answering", async () => {
    const agent = new HumanAgent("ana");
    const simulator = new HumanSimulator("sam");
    const stored: TurnRecord[] = [];
    const task = {
      benchmark: "backend" as const,
      problemDescription: "Write add.",
      groundTruth: "def add(a, b): return a + b",
      hiddenInformation: null,
      testCases: null,
    };
    const seenByAgent: string[] = [];
    agent.inbox.onAwait((input) => {
      seenByAgent.push(JSON.stringify(input));
      queueMicrotask(() =>
        agent.inbox.submit(input.turn === 0 ? "Ints or floats?" : "I WANT TO ANSWER: def add(a, b): return a + b"),
      );
    });
    simulator.inbox.onAwait((input) =>
      queueMicrotask(() =>
        simulator.inbox.submit(`Ints. (I can see: ${input.task.groundTruth.length} chars of reference)`),
      ),
    );
    const outcome = await runEpisode({
      task,
      rules: backend.episode,
      agent,
      simulator,
      persist: async (t) => void stored.push(t),
    });
    expect(stored.map((t) => t.content)).toEqual([
      "Write add.",
      "Ints or floats?",
      "Ints. (I can see: 27 chars of reference)",
      "I WANT TO ANSWER: def add(a, b): return a + b",
    ]);
    expect(outcome.answer).toBe(" def add(a, b): return a + b");
    expect(seenByAgent.join()).not.toContain("return a + b");
    expect(() => agent.inbox.submit("late")).toThrow(/no move is awaited/);
  });
});
