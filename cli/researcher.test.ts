import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../lib/db/open";
import { runConfigSchema } from "../lib/benchmarks/run-config";
import { projectRoot } from "../lib/paths";
import { runColbench } from "./testing/colbench";
import { startScriptedServer, type ScriptedServer } from "../e2e/fixtures/scripted-model-server";

// A researcher's commands through the real binary: tasks picked by the benchmark's own position or
// by studio id (commas and ranges), a mistyped split named with the splits that exist, an empty
// training file naming the step that fills it, and candidates against a server without log-probs.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-researcher-"));
const samples = fs
  .readFileSync(path.join(projectRoot, "samples", "backend.jsonl"), "utf8")
  .trim()
  .split("\n");
let server: ScriptedServer;
const colbench = (args: string[]) => runColbench(dataDir, args);
const model = (name: string) => `${server.url}#${name}`;
const players = () => ["--agent", model("ask-then-answer"), "--simulator", model("simulator")];

async function taskIdsOf(run: string): Promise<number[]> {
  const db = await openDatabase({ pgliteDir: path.join(dataDir, "db"), url: "" });
  try {
    const row = await db.prisma.run.findUniqueOrThrow({ where: { name: run }, select: { config: true } });
    return runConfigSchema.parse(row.config).taskIds;
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  const tasks = samples.map((l) => JSON.parse(l) as { problem_description: string; ground_truth: string });
  server = await startScriptedServer({
    tasks: tasks.map((t) => ({ problemDescription: t.problem_description, groundTruth: t.ground_truth })),
  });
  // Two files: studio ids 1-4 are first.jsonl's lines 1-4, ids 5-8 second.jsonl's lines 1-4.
  for (const [name, lines] of [
    ["first.jsonl", samples.slice(0, 4)],
    ["second.jsonl", samples.slice(4, 8)],
  ] as const) {
    const file = path.join(dataDir, name);
    fs.writeFileSync(file, lines.join("\n") + "\n");
    const imported = await colbench(["import", file, "--benchmark", "backend"]);
    expect(imported.status, imported.stderr).toBe(0);
  }
}, 120_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("--tasks", () => {
  it(
    "picks by the benchmark's own position in a file (index from 0, lines from 1), not by studio id",
    { timeout: 120_000 },
    async () => {
      const result = await colbench([
        "run",
        "--benchmark",
        "backend",
        "--tasks",
        "source=second.jsonl,index=0-1",
        "--name",
        "by-position",
        ...players(),
      ]);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toContain("2 tasks x 1");
      expect(await taskIdsOf("by-position")).toEqual([5, 6]);
    },
  );

  it("takes studio ids with commas and ranges, as the form's hint says", { timeout: 120_000 }, async () => {
    const result = await colbench([
      "run",
      "--benchmark",
      "backend",
      "--tasks",
      "ids=2,4,7-8",
      "--name",
      "by-id",
      ...players(),
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(await taskIdsOf("by-id")).toEqual([2, 4, 7, 8]);
  });

  it(
    "names a mistyped split with the splits that exist, and asks for source= when a position is in several files",
    { timeout: 60_000 },
    async () => {
      const typo = await colbench(["run", "--benchmark", "backend", "--tasks", "split=tset", ...players()]);
      expect(typo.status).toBe(1);
      expect(typo.stderr).toContain(
        '--tasks "split=tset": no backend task has split "tset"; the splits that exist: test (8)',
      );
      expect(typo.stderr).not.toMatch(/\n\s+at /);
      const ambiguous = await colbench(["run", "--benchmark", "backend", "--tasks", "lines=1", ...players()]);
      expect(ambiguous.status).toBe(1);
      expect(ambiguous.stderr).toContain("2 backend files hold them (first.jsonl, second.jsonl): add source=NAME");
      const key = await colbench(["run", "--benchmark", "backend", "--tasks", "spilt=test", ...players()]);
      expect(key.stderr).toContain('unknown key "spilt" in "spilt=test"');
    },
  );
});

describe("SWEET-RL from the terminal", () => {
  it("an empty training file names the step that fills it", { timeout: 60_000 }, async () => {
    const out = path.join(dataDir, "policy.jsonl");
    const policy = await colbench(["export", "by-id", "--format", "openrlhf-policy", "--out", out]);
    expect(policy.status, policy.stderr).toBe(0);
    expect(fs.readFileSync(out, "utf8")).toBe("");
    expect(policy.stderr).toContain(
      'openrlhf-policy of "by-id" is empty: no turn pairs yet: run `colbench candidates by-id --policy URL#MODEL`',
    );
    const critic = await colbench(["export", "by-id", "--format", "openrlhf-critic", "--out", out]);
    expect(critic.stderr).toContain("no trajectory pairs yet: run `colbench pairs by-id` first");
  });

  it("candidates against a server without log-probs say so in words", { timeout: 120_000 }, async () => {
    const result = await colbench(["candidates", "by-id", "--policy", model("no-logprobs"), "--n", "2"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "this server returns no log-probs for sampled text; candidates need a server that does, e.g. vLLM",
    );
  });
});
