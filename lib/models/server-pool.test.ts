import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { formatServerSpec, parseServerSpec } from "../colbench/server-spec";
import { OpenAICompatibleClient } from "./openai-client";
import { ServerPool } from "./server-pool";

// Replicas of one model behind real HTTP servers: where requests go, how many at once, and what
// happens to a server that fails.

interface Replica {
  url: string;
  served: number;
  maxInFlight: number;
  /** Answer 500 while set. */
  broken: boolean;
  delayMs: number;
  server: Server;
}

const replicas: Replica[] = [];

async function replica(delayMs = 30): Promise<Replica> {
  let inFlight = 0;
  const r = { url: "", served: 0, maxInFlight: 0, broken: false, delayMs } as Replica;
  r.server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      inFlight++;
      r.maxInFlight = Math.max(r.maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        r.served++;
        if (r.broken) {
          res
            .writeHead(500, { "Content-Type": "application/json" })
            .end(JSON.stringify({ error: { message: "down" } }));
          return;
        }
        res.writeHead(200, { "Content-Type": "application/json" }).end(
          JSON.stringify({
            choices: [{ message: { content: `from ${r.url}` } }],
            usage: { prompt_tokens: 1, completion_tokens: 1 },
          }),
        );
      }, r.delayMs);
    });
  });
  await new Promise<void>((resolve) => r.server.listen(0, "127.0.0.1", resolve));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/v1`;
  replicas.push(r);
  return r;
}

afterEach(async () => {
  await Promise.all(replicas.splice(0).map((r) => new Promise((resolve) => r.server.close(resolve))));
});

const ask = (client: OpenAICompatibleClient) => client.chat({ messages: [{ role: "user", content: "hi" }] });

describe("parseServerSpec with replicas", () => {
  it("reads URL,URL#MODEL as one model on several servers, and writes it back", () => {
    const spec = parseServerSpec("http://a:8000/v1/,http://b:8000/v1#m/x", "--agent");
    expect(spec).toEqual({ baseUrl: "http://a:8000/v1", model: "m/x", replicas: ["http://b:8000/v1"] });
    expect(formatServerSpec(spec)).toBe("http://a:8000/v1,http://b:8000/v1#m/x");
    expect(parseServerSpec("http://a:8000/v1#m")).toEqual({ baseUrl: "http://a:8000/v1", model: "m" });
    expect(() => parseServerSpec("http://a/v1,ftp://b#m")).toThrow(/not an http\(s\) URL list/);
  });
});

describe("a pool of model servers", () => {
  it("spreads requests over the replicas, never more than the limit on one at once", async () => {
    const [a, b, c] = [await replica(), await replica(), await replica()];
    const client = new OpenAICompatibleClient(parseServerSpec(`${a.url},${b.url},${c.url}#pool-spread`), {
      concurrency: 2,
    });
    const answers = await Promise.all(Array.from({ length: 24 }, () => ask(client)));
    expect(answers).toHaveLength(24);
    for (const r of [a, b, c]) {
      expect(r.maxInFlight).toBeLessThanOrEqual(2);
      expect(r.served).toBe(8);
    }
  });

  it("sends more to the server that answers faster (least loaded first)", async () => {
    const [fast, slow] = [await replica(10), await replica(300)];
    const client = new OpenAICompatibleClient(parseServerSpec(`${slow.url},${fast.url}#pool-least-loaded`), {
      concurrency: 4,
    });
    // A steady stream, 4 at a time: the fast server frees its slots far sooner.
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next++ < 40) await ask(client);
      }),
    );
    expect(fast.served).toBeGreaterThan(slow.served * 3);
  });

  it("takes a failing server out for a while: the client's retries land on the others, then it comes back", async () => {
    const [good, bad] = [await replica(), await replica()];
    bad.broken = true;
    const pool = new ServerPool([bad.url, good.url], { perServer: 4, downMs: 400 });
    const client = new OpenAICompatibleClient(parseServerSpec(`${bad.url},${good.url}#pool-failing`), {
      concurrency: 4,
      backoffMs: 1,
    });
    // Through the client: the first request to the bad one fails, its retry goes to the good one.
    const answers = await Promise.all(Array.from({ length: 12 }, () => ask(client)));
    expect(answers.every((a) => a.text === `from ${good.url}`)).toBe(true);
    expect(bad.served).toBeLessThanOrEqual(4);
    const servedWhileDown = bad.served;
    for (let i = 0; i < 8; i++) await ask(client);
    expect(bad.served).toBe(servedWhileDown);

    // The pool on its own: out after a failure, back after downMs.
    const call = (url: string) =>
      fetch(`${url}/chat/completions`, { method: "POST", body: "{}" }).then((r) =>
        r.ok ? url : Promise.reject(new Error(String(r.status))),
      );
    await expect(pool.run(call)).rejects.toThrow("500");
    expect(pool.status().find((s) => s.url === bad.url)!.up).toBe(false);
    expect(await pool.run(call)).toBe(good.url);
    bad.broken = false;
    await new Promise((r) => setTimeout(r, 450));
    expect(pool.status().find((s) => s.url === bad.url)!.up).toBe(true);
    // Both idle and up: the first listed wins the tie.
    expect(await pool.run(call)).toBe(bad.url);
  });
});
