import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import {
  startScriptedServer,
  tokenize,
  type ScriptedServer,
  type ScriptedTask,
} from "../../e2e/fixtures/scripted-model-server";

const MARKER = "I WANT TO ANSWER:";
const SLOW_MS = 250;

const backendTask: ScriptedTask = {
  problemDescription:
    "Write me a function that works out shipping. The signature of the function is: def shipping_cost(weight_kg, express)",
  groundTruth: "def shipping_cost(weight_kg, express):\n    return 4.99 + weight_kg * (2 if express else 1)",
};
const frontendTask: ScriptedTask = {
  problemDescription: "Neighbourhood Bakery: a warm page with a menu, product cards and a footer.",
  groundTruth: '<html>\n<body class="bg-yellow-50"><h1>Crumb &amp; Crust</h1></body>\n</html>',
};

type Message = { role: string; content: unknown };

interface TokenLogprob {
  token: string;
  logprob: number;
  bytes?: number[] | null;
  top_logprobs: Array<{ token: string; logprob: number }>;
}

interface Choice {
  index: number;
  finish_reason: string;
  text: string;
  message: { role: string; content: string };
  // Chat completions carry `content`; text completions (vLLM's echo scoring) the four parallel lists; absent
  // unless asked for, which the tests check.
  logprobs: {
    content: [TokenLogprob, ...TokenLogprob[]];
    tokens: [string, ...string[]];
    token_logprobs: Array<number | null>;
    top_logprobs: Array<Record<string, number> | null>;
    text_offset: number[];
  };
}

/** What the tests read of an answer: OpenAI's completion, chat completion, model list and error shapes. */
interface ReplyBody {
  id: string;
  object: string;
  created: number;
  model: string;
  // Tuples with a first element: the tests index the first choice and token, which the shape checks assert.
  choices: [Choice, ...Choice[]];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  data: Array<{ id: string }>;
  error: { type: string; code: string | null; message: string };
}

interface ChatReply {
  status: number;
  headers: Headers;
  body: ReplyBody;
  text: string;
}

let server: ScriptedServer;

async function post(path: string, body: unknown): Promise<ChatReply> {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as ReplyBody, text };
}

const chat = (model: string, messages: Message[], extra: Record<string, unknown> = {}) =>
  post("/chat/completions", { model, messages, ...extra });

const contentOf = (reply: ChatReply): string => {
  expect(reply.status).toBe(200);
  return reply.body.choices[0].message.content;
};

/** Plays an agent through `turns` turns with a fixed human reply; returns the agent's contents. */
async function playAgent(model: string, problem: string, turns: number): Promise<string[]> {
  const messages: Message[] = [
    { role: "system", content: "You are a collaborative agent. End with I WANT TO ANSWER:" },
    { role: "user", content: problem },
  ];
  const outputs: string[] = [];
  for (let i = 0; i < turns; i++) {
    const content = contentOf(await chat(model, messages));
    outputs.push(content);
    if (content.includes(MARKER)) break;
    messages.push({ role: "assistant", content }, { role: "user", content: `Human reply ${i + 1}` });
  }
  return outputs;
}

const conversation = (label: string): Message[] => [
  { role: "system", content: "agent prompt" },
  { role: "user", content: `problem ${label}` },
];

beforeAll(async () => {
  server = await startScriptedServer({ port: 0, tasks: [backendTask, frontendTask], slowMs: SLOW_MS });
});

afterAll(async () => {
  await server?.close();
});

describe("scripted model server", () => {
  it("serves an OpenAI base URL and lists its behaviours as models", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await fetch(`${server.url}/models`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; data: Array<{ id: string }> };
    expect(body.object).toBe("list");
    expect(body.data.map((m) => m.id)).toEqual(
      expect.arrayContaining([
        "ask-then-answer",
        "never-answer",
        "malformed",
        "slow",
        "flaky",
        "rate-limited",
        "simulator",
        "logprobs",
        "echo",
      ]),
    );
  });

  it("ask-then-answer asks twice, then answers a backend task with its ground truth", async () => {
    const outputs = await playAgent("ask-then-answer", backendTask.problemDescription, 5);
    expect(outputs).toHaveLength(3);
    expect(outputs[0]).toContain("OUTPUT:");
    expect(outputs[0]!.indexOf("OUTPUT:")).toBeGreaterThan(0);
    expect(outputs[0]).not.toContain(MARKER);
    expect(outputs[1]).not.toContain(MARKER);
    expect(outputs[1]).not.toBe(outputs[0]);
    expect(outputs[2]).toBe(`${MARKER}\n${backendTask.groundTruth}`);
  });

  it("ask-then-answer proposes HTML drafts, then answers a frontend task with its ground-truth HTML", async () => {
    // Trimmed match: surrounding whitespace in the first user message still finds the task.
    const outputs = await playAgent("ask-then-answer", `  ${frontendTask.problemDescription}\n`, 5);
    expect(outputs).toHaveLength(3);
    expect(outputs[0]).toContain('<html><body class="p-4"><h1>Draft 1</h1></body></html>');
    expect(outputs[1]).toContain('<html><body class="p-4"><h1>Draft 2</h1></body></html>');
    expect(outputs[2]).toBe(`${MARKER}\n${frontendTask.groundTruth}`);
  });

  it("ask-then-answer says so when the task is unknown", async () => {
    const outputs = await playAgent("ask-then-answer", "a task nobody registered", 5);
    expect(outputs[2]).toBe(`${MARKER}\n# no ground truth known for this task`);
  });

  it("never-answer never writes the marker in 12 turns", async () => {
    const outputs = await playAgent("never-answer", backendTask.problemDescription, 12);
    expect(outputs).toHaveLength(12);
    for (const o of outputs) expect(o).not.toContain(MARKER);
  });

  it("malformed cycles through its three bodies", async () => {
    const seen: Array<{ type: string | null; text: string }> = [];
    for (let i = 0; i < 4; i++) {
      const r = await chat("malformed", conversation("malformed"));
      expect(r.status).toBe(200);
      seen.push({ type: r.headers.get("content-type"), text: r.text });
    }
    const texts = seen.slice(0, 3).map((s) => s.text);
    expect(new Set(texts)).toEqual(
      new Set([
        '{"choices":[]}',
        '{"choices":[{"message":{"role":"assistant","content":null}}]}',
        "<html>gateway</html>",
      ]),
    );
    expect(seen.find((s) => s.text === "<html>gateway</html>")!.type).toMatch(/^text\/html/);
    expect(seen[3]!.text).toBe(seen[0]!.text);
  });

  it("flaky:2 fails a conversation's first two requests with 500, then succeeds; conversations count separately", async () => {
    const a = conversation("flaky-a");
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await chat("flaky:2", a)).status);
    expect(statuses).toEqual([500, 500, 200]);
    const failed = await chat("flaky:2", conversation("flaky-c"));
    expect(failed.body.error).toMatchObject({ type: "server_error" });
    expect(typeof failed.body.error.message).toBe("string");
    // Later turns of the same conversation (same first two messages) keep succeeding.
    const next = await chat("flaky:2", [...a, { role: "assistant", content: "q" }, { role: "user", content: "a" }]);
    expect(next.status).toBe(200);
    // A fresh conversation gets its own two failures; `flaky` alone means one.
    expect((await chat("flaky:2", conversation("flaky-b"))).status).toBe(500);
    expect((await chat("flaky", conversation("flaky-d"))).status).toBe(500);
    expect((await chat("flaky", conversation("flaky-d"))).status).toBe(200);
  });

  it("rate-limited answers 429 with Retry-After: 0, then succeeds", async () => {
    const c = conversation("rate");
    const first = await chat("rate-limited:1", c);
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("0");
    expect(first.body.error.code).toBe("rate_limit_exceeded");
    const second = await chat("rate-limited:1", c);
    expect(second.status).toBe(200);
    expect(contentOf(second)).toContain("OUTPUT:");
  });

  it("slow waits at least slowMs without blocking a concurrent fast request", async () => {
    const order: string[] = [];
    const started = performance.now();
    const slow = chat("slow", conversation("slow")).then((r) => {
      order.push("slow");
      return { r, ms: performance.now() - started };
    });
    const fast = chat("ask-then-answer", conversation("fast")).then((r) => {
      order.push("fast");
      return r;
    });
    const [s, f] = await Promise.all([slow, fast]);
    expect(order).toEqual(["fast", "slow"]);
    expect(f.status).toBe(200);
    expect(s.r.status).toBe(200);
    expect(s.ms).toBeGreaterThanOrEqual(SLOW_MS);
    expect(Number(s.r.headers.get("x-scripted-server-ms"))).toBeGreaterThanOrEqual(SLOW_MS);
    expect(contentOf(s.r)).toContain("OUTPUT:");

    const custom = performance.now();
    const r = await chat("slow:60", conversation("slow-60"));
    expect(r.status).toBe(200);
    expect(performance.now() - custom).toBeGreaterThanOrEqual(60);
  });

  it("returns chat completions in the OpenAI shape, with logprobs on request and always for `logprobs`", async () => {
    const plain = await chat("ask-then-answer", conversation("shape"));
    expect(plain.body).toMatchObject({ object: "chat.completion", model: "ask-then-answer" });
    expect(typeof plain.body.id).toBe("string");
    expect(typeof plain.body.created).toBe("number");
    expect(plain.body.choices[0]).toMatchObject({ index: 0, finish_reason: "stop", message: { role: "assistant" } });
    expect(plain.body.choices[0].logprobs ?? null).toBeNull();
    const usage = plain.body.usage;
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    expect(Number(plain.headers.get("x-scripted-server-ms"))).toBeGreaterThanOrEqual(0);

    const always = await chat("logprobs", conversation("lp"));
    const content = contentOf(always);
    const lp = always.body.choices[0].logprobs.content as Array<{
      token: string;
      logprob: number;
      bytes: number[];
      top_logprobs: unknown[];
    }>;
    expect(lp.length).toBeGreaterThan(0);
    // vLLM's shape: the end-of-sequence token ends the scored tokens, not the text.
    expect(lp.at(-1)!.token).toBe("<|eot_id|>");
    expect(
      lp
        .slice(0, -1)
        .map((t) => t.token)
        .join(""),
    ).toBe(content);
    for (const t of lp) {
      expect(t.logprob).toBeLessThan(0);
      expect(Buffer.from(t.bytes).toString("utf8")).toBe(t.token);
      expect(t.top_logprobs).toEqual([]);
    }
    const again = await chat("logprobs", conversation("lp"));
    expect(again.body.choices[0].logprobs).toEqual(always.body.choices[0].logprobs);

    const asked = await chat("ask-then-answer", conversation("lp2"), { logprobs: true, top_logprobs: 3 });
    const first = asked.body.choices[0].logprobs.content[0];
    expect(first.top_logprobs).toHaveLength(3);
    expect(first.top_logprobs[0]).toMatchObject({ token: first.token, logprob: first.logprob });
    expect(first.top_logprobs[1]?.logprob).toBeLessThan(first.logprob);
  });

  it("refuses stream: true with a 400 OpenAI error", async () => {
    const r = await chat("ask-then-answer", conversation("stream"), { stream: true });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: "invalid_request_error" });
  });

  it("echo returns the messages it received", async () => {
    const messages: Message[] = [...conversation("echo"), { role: "assistant", content: "hi" }];
    expect(JSON.parse(contentOf(await chat("echo", messages)))).toEqual(messages);
  });

  it("completions echo prompt tokens with deterministic logprobs", async () => {
    const prompt = "def f(x):\n    return x  +  1 # café ✓\n\n";
    const ask = (maxTokens: number) =>
      post("/completions", {
        model: "logprobs",
        prompt,
        echo: true,
        logprobs: 1,
        max_tokens: maxTokens,
        add_special_tokens: false,
      });
    const r0 = await ask(0);
    expect(r0.status).toBe(200);
    const c0 = r0.body.choices[0];
    const lp0 = c0.logprobs;
    expect(lp0.tokens.join("")).toBe(prompt);
    expect(lp0.tokens).toEqual(tokenize(prompt));
    expect(c0.text).toBe(prompt);
    expect(lp0.token_logprobs[0]).toBeNull();
    expect(lp0.top_logprobs[0]).toBeNull();
    for (const v of lp0.token_logprobs.slice(1)) expect(v).toBeLessThan(0);
    expect(lp0.token_logprobs).toHaveLength(lp0.tokens.length);
    expect(lp0.text_offset[0]).toBe(0);
    lp0.tokens.forEach((t: string, i: number) =>
      expect(prompt.slice(lp0.text_offset[i], (lp0.text_offset[i] ?? NaN) + t.length)).toBe(t),
    );
    expect(r0.body.usage.prompt_tokens).toBe(lp0.tokens.length);
    expect(r0.body.usage.completion_tokens).toBe(0);

    const again = await ask(0);
    expect(again.body.choices[0].logprobs).toEqual(lp0);

    const r1 = await ask(1);
    const lp1 = r1.body.choices[0].logprobs;
    expect(lp1.tokens).toHaveLength(lp0.tokens.length + 1);
    expect(lp1.tokens.slice(0, -1)).toEqual(lp0.tokens);
    expect(lp1.token_logprobs.slice(0, -1)).toEqual(lp0.token_logprobs);
    expect(lp1.token_logprobs.at(-1)).toBeLessThan(0);
    expect(r1.body.usage).toMatchObject({ prompt_tokens: lp0.tokens.length, completion_tokens: 1 });
    expect(r1.body.choices[0].text).toBe(lp1.tokens.join(""));

    // vLLM adds the tokenizer's BOS unless add_special_tokens is false: scored first, not in the text.
    const withBos = (await post("/completions", { model: "logprobs", prompt, echo: true, logprobs: 1, max_tokens: 0 }))
      .body;
    expect(withBos.choices[0].logprobs.tokens).toEqual(["<|begin_of_text|>", ...lp0.tokens]);
    expect(withBos.choices[0].text).toBe(prompt);
    expect(withBos.usage.prompt_tokens).toBe(lp0.tokens.length + 1);
  });

  it("completions sample n agent replies from a prompt string, each ending on the scored end-of-sequence token", async () => {
    const prompt =
      "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nWrite add.<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n";
    const r = await post("/completions", {
      model: "ask-then-answer",
      prompt,
      n: 3,
      logprobs: 0,
      max_tokens: 1024,
      add_special_tokens: false,
    });
    expect(r.status).toBe(200);
    expect(r.body.choices).toHaveLength(3);
    expect(new Set(r.body.choices.map((c: { text: string }) => c.text)).size).toBe(3);
    for (const c of r.body.choices) {
      expect(c.finish_reason).toBe("stop");
      expect(c.logprobs.tokens.at(-1)).toBe("<|eot_id|>");
      expect(c.logprobs.tokens.slice(0, -1).join("")).toBe(c.text);
      expect(c.logprobs.token_logprobs.every((v: number | null) => typeof v === "number")).toBe(true);
    }
    // The prompt counts once however many samples it has.
    expect(r.body.usage.prompt_tokens).toBe(tokenize(prompt).length);
  });

  it("scoring faults break completions answers the ways real servers do", async () => {
    const prompt = "one two three four five six seven eight nine ten eleven";
    const ask = async (model: string) =>
      (await post("/completions", { model, prompt, echo: true, logprobs: 1, max_tokens: 1, add_special_tokens: false }))
        .body;
    expect((await ask("no-echo")).choices[0].logprobs.tokens).toHaveLength(1);
    expect((await ask("truncated-prompt")).choices[0].logprobs.tokens.length).toBeLessThan(tokenize(prompt).length + 1);
    expect(
      (await ask("null-logprobs")).choices[0].logprobs.token_logprobs.slice(1).some((v: number | null) => v === null),
    ).toBe(true);
    const shifted = (await ask("shifted-offsets")).choices[0].logprobs;
    expect(shifted.text_offset[3]).toBe((shifted.text_offset[2] ?? NaN) + (shifted.tokens[2]?.length ?? NaN) + 1);
    expect((await ask("forced-bos")).choices[0].logprobs.tokens[0]).toBe("<|begin_of_text|>");
  });

  it("simulator (backend) answers briefly and echoes the hidden information", async () => {
    const hidden = "def shipping_cost(weight_kg, express):\n    return 4.99 + weight_kg";
    const prompt = `Simulate a human.\nHIDDEN: ${hidden}\nDialogue so far:\nagent: How heavy can a parcel be?\n`;
    const messages: Message[] = [
      { role: "system", content: "You are a human." },
      { role: "user", content: prompt },
    ];
    const reply = contentOf(await chat("simulator", messages));
    expect(reply).toContain(hidden.slice(0, 40));
    expect(reply).toContain("How heavy can a parcel be");
    expect(reply.length).toBeLessThan(400);
    expect(contentOf(await chat("simulator", messages))).toBe(reply);

    const noHidden = contentOf(await chat("simulator", [{ role: "user", content: "agent: What colour?" }]));
    expect(noHidden).toContain("The function should follow the reference exactly.");

    const long = contentOf(await chat("simulator:long", messages));
    expect(long.length).toBeGreaterThan(400);
  });

  it("simulator (frontend) reports the images it received and their byte sizes", async () => {
    const agentRender = Buffer.alloc(1234, 7);
    const targetRender = Buffer.alloc(2048, 9);
    const content = [
      { type: "text", text: "Here is the agent's page and the target page." },
      { type: "image_url", image_url: { url: `data:image/png;base64,${agentRender.toString("base64")}` } },
      { type: "text", text: "Target:" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${targetRender.toString("base64")}` } },
    ];
    const reply = contentOf(await chat("simulator", [{ role: "user", content }]));
    expect(reply.startsWith("Compared with the target: ")).toBe(true);
    expect(reply).toContain("2 images");
    expect(reply).toContain("1234 bytes");
    expect(reply).toContain("2048 bytes");
    const long = contentOf(await chat("simulator:long", [{ role: "user", content }]));
    expect(long.length).toBeGreaterThan(1000);
    expect(long).toContain("2 images");
  });

  it("answers unknown models, bad JSON and unknown routes with OpenAI-style errors", async () => {
    const unknown = await chat("gpt-imaginary", conversation("x"));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("model_not_found");
    expect((await chat("flaky:x", conversation("x"))).status).toBe(404);

    const bad = await post("/chat/completions", "{not json");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: "invalid_request_error" });

    const missing = await fetch(`${server.url}/embeddings`, { method: "POST", body: "{}" });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toBeTruthy();
    expect((await fetch(server.url.replace(/\/v1$/, "/nothing"))).status).toBe(404);
  });

  it("counts requests, models, errors and handler time; reset clears them", async () => {
    server.reset();
    expect(server.stats()).toEqual({ requests: 0, byModel: {}, serverMs: 0, errors: 0 });
    await chat("ask-then-answer", conversation("stats"));
    await chat("simulator", [{ role: "user", content: "agent: hi" }]);
    await chat("flaky", conversation("stats"));
    await chat("nope", conversation("stats"));
    const s = server.stats();
    expect(s.requests).toBe(4);
    expect(s.byModel).toEqual({ "ask-then-answer": 1, simulator: 1, flaky: 1, nope: 1 });
    expect(s.errors).toBe(2);
    expect(s.serverMs).toBeGreaterThan(0);
    // reset also forgets per-conversation state: the flaky conversation fails again.
    server.reset();
    expect((await chat("flaky", conversation("stats"))).status).toBe(500);
  });

  it("runs as a CLI with a tasks file and prints its URL", async () => {
    const dir = mkdtempSync(join(tmpdir(), "scripted-server-"));
    const tasksFile = join(dir, "tasks.jsonl");
    writeFileSync(
      tasksFile,
      `${JSON.stringify({ problem_description: backendTask.problemDescription, ground_truth: backendTask.groundTruth, test_cases: {} })}\n\n`,
    );
    const script = fileURLToPath(new URL("../../e2e/fixtures/scripted-model-server.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", script, "--port", "0", "--tasks", tasksFile], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        let err = "";
        const timer = setTimeout(() => reject(new Error(`no URL printed; stderr: ${err}`)), 30_000);
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          const m = /listening (http:\/\/\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        child.stderr.on("data", (d: Buffer) => (err += d.toString()));
        child.once("exit", (code) => reject(new Error(`exited ${code}; stderr: ${err}`)));
      });
      expect(url).toMatch(/\/v1$/);
      const messages: Message[] = [
        { role: "system", content: "agent" },
        { role: "user", content: backendTask.problemDescription },
        { role: "assistant", content: "q1" },
        { role: "user", content: "a1" },
        { role: "assistant", content: "q2" },
        { role: "user", content: "a2" },
      ];
      const res = await fetch(`${url}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "ask-then-answer", messages }),
      });
      const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
      expect(body.choices[0]!.message.content).toBe(`${MARKER}\n${backendTask.groundTruth}`);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
