import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../paths";
import { encodeFrame, FrameDecoder } from "./protocol";

// The worker's own JSON reading and writing (workers/python/protocol.py, built on the json
// package's C half), driven over its pipes the way the pool does, but with frames the pool never
// sends.

const workerPath = path.join(projectRoot, "workers", "python", "worker.py");

/** Starts a worker, writes `frames`, closes its input; every message it sent and its exit status. */
function talk(frames: Buffer[]): Promise<{ messages: Record<string, unknown>[]; status: number | null }> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", LANG: "C.UTF-8" };
  const child = spawn(process.env.COLBENCH_PYTHON ?? "python3", ["-S", "-E", workerPath], {
    cwd: "/",
    env: env as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "ignore"],
  });
  const decoder = new FrameDecoder();
  const messages: Record<string, unknown>[] = [];
  child.stdout.on("data", (chunk: Buffer) => messages.push(...(decoder.push(chunk) as Record<string, unknown>[])));
  child.stdin.on("error", () => {});
  child.stdin.end(Buffer.concat(frames));
  return new Promise((resolve) => child.on("close", (status: number | null) => resolve({ messages, status })));
}

/** A frame holding `body` as it is, JSON or not. */
function rawFrame(body: string): Buffer {
  const bytes = Buffer.from(body, "utf8");
  const head = Buffer.alloc(4);
  head.writeUInt32BE(bytes.length, 0);
  return Buffer.concat([head, bytes]);
}

describe("the worker's frames", () => {
  it("reads and writes any text, non-ASCII and unpaired surrogates included", async () => {
    const answer = "def f(s):\n    print('ü ✓')\n    return s + '\\ud800' + '✓'\n";
    const { messages, status } = await talk([
      encodeFrame({
        id: 7,
        type: "score",
        ground_truth: "def f(s):\n    return s\n",
        answer,
        tests: [["ünï", "f('é')"]],
      }),
      encodeFrame({ id: 8, type: "ping" }),
    ]);
    expect(status).toBe(0);
    const [hello, result, pong] = messages;
    expect(hello).toMatchObject({ type: "hello" });
    expect(result).toMatchObject({ id: 7, type: "result", reward: 0, output: "ü ✓\n" });
    // The answer's repr carries the lone surrogate escaped, as repr() writes it.
    expect((result!.tests as { reason: string; expected: string; actual: string }[])[0]).toEqual({
      passed: false,
      reason: "mismatch",
      expected: "'é'",
      actual: "'é\\ud800✓'",
      // What the answer printed during this test, kept with the test's result.
      output: "ü ✓\n",
    });
    expect(pong).toEqual({ id: 8, type: "pong" });
  });

  it("answers what is not one JSON object with an error, then stops", async () => {
    for (const body of ['{"id": 1, "type": "ping"} trailing', '{"id": 1, "type": tru}', "[1, 2]", "NaN", ""]) {
      const { messages, status } = await talk([
        encodeFrame({ id: 1, type: "ping" }),
        rawFrame(body),
        encodeFrame({ id: 3, type: "ping" }),
      ]);
      expect(messages.slice(1, 2)).toEqual([{ id: 1, type: "pong" }]);
      expect(messages[2]).toMatchObject({
        id: null,
        type: "error",
        message: expect.stringMatching(/^bad frame: /) as unknown,
      });
      expect(messages).toHaveLength(3);
      expect(status).toBe(2);
    }
  });
});
