import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FrontendAnswer } from "../../scoring/frontend/input";
import { scoreFrontendFile, type FrontendScoring } from "./score-file";

function sink(): PassThrough & { text: () => string } {
  const s = new PassThrough() as PassThrough & { text: () => string };
  let buf = "";
  s.on("data", (chunk: Buffer) => (buf += chunk.toString()));
  s.text = () => buf;
  return s;
}

const PROFILE = { name: "paper", browser: "firefox", placeholders: "generated" } as const;

// Scores 1 when the answer is the target's HTML, 0.25 otherwise, 0 without an answer.
const fakeScorer = async (): Promise<FrontendScoring> => ({
  embedder: { id: "fake", embed: async () => new Float32Array(1) },
  async score(groundTruth: string, answer: FrontendAnswer) {
    const reward = answer.kind === "none" ? 0 : answer.kind === "html" && answer.html === groundTruth ? 1 : 0.25;
    return {
      reward,
      embedder: "fake",
      profile: PROFILE,
      answerRender: answer.kind,
      targetRender: "t",
      answerStatus: answer.kind === "none" ? "none" : "ok",
      targetStatus: "ok",
    };
  },
  async close() {},
});

describe("score frontend", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "colbench-score-frontend-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("scores every good line in order, reports bad ones as FILE:LINE, and ends with the summary", async () => {
    writeFileSync(path.join(dir, "shot.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const input = path.join(dir, "in.jsonl");
    writeFileSync(
      input,
      [
        JSON.stringify({ task: { ground_truth: "<p>a</p>", problem_description: "A" }, answer: "<p>a</p>", extra: 7 }),
        JSON.stringify({ task: { problem_description: "no ground truth" }, answer: "<p>b</p>" }),
        "{oops",
        JSON.stringify({ ground_truth: "<p>c</p>", answer: "shot.png" }),
        JSON.stringify({ task: { ground_truth: "<p>d</p>" }, answer: null }),
        JSON.stringify({ task: { ground_truth: "<p>e</p>" }, answer: "photo.jpg" }),
      ].join("\n"),
    );
    const out = path.join(dir, "out.jsonl");
    const stdout = sink();
    const stderr = sink();
    const code = await scoreFrontendFile(input, { out, embedder: "default" }, { stdout, stderr }, fakeScorer);
    expect(code).toBe(1);
    expect(stderr.text()).toContain(`${input}:2: task.ground_truth:`);
    expect(stderr.text()).toContain(`${input}:3: (json):`);
    expect(stderr.text()).toContain(`${input}:6: answer: only PNG screenshots`);
    const lines = stdout.text().trim().split("\n");
    expect(JSON.parse(lines.at(-1)!)).toEqual({
      n: 3,
      average_similarity: (1 + 0.25 + 0) / 3,
      embedder: "fake",
      render_profile: PROFILE,
    });
    expect(stderr.text()).toContain("rendered under paper · firefox · generated placeholders");
    const written = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(written.map((w) => w.reward)).toEqual([1, 0.25, 0]);
    expect(written[0]).toMatchObject({
      extra: 7,
      embedder: "fake",
      render_profile: PROFILE,
      answer_render: "html",
      target_render: "t",
    });
    expect(written[1]).toMatchObject({ answer_render: "image", answer_render_status: "ok" });
    expect(written[2]).toMatchObject({ answer_render_status: "none" });
  });
});
