import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../lib/db/open";
import { CpuModel } from "../lib/gpu/model/cpu-model";
import { LocalScorer } from "../lib/gpu/model/scorer";
import { ModelTokenizer } from "../lib/gpu/model/tokenizer";
import { folderSource } from "../lib/gpu/node/folder-source";
import { projectRoot } from "../lib/paths";
import { runColbench } from "./testing/colbench";
import { chatTemplate, promptText } from "../lib/sweet/chat-template";
import { criticPrompt, criticScore } from "../lib/sweet/critic";
import { startScriptedServer, type ScriptedServer } from "../e2e/fixtures/scripted-model-server";

// `colbench rank --critic-weights DIR --policy-weights DIR` through the real binary: a run and its
// candidates come from the scripted model server, the ranking from the committed tiny Llama fixtures
// on WebGPU (Dawn; a software adapter in CI). Its advantages are recomputed here on the CPU path,
// one prompt at a time (no prefix shared), with the SWEET-RL rules of lib/sweet.

const fixtures = path.join(projectRoot, "lib", "gpu", "fixtures");
const critic = path.join(fixtures, "llama-tiny");
const policy = path.join(fixtures, "llama-tiny-bf16");
const taskFile = path.join(projectRoot, "samples", "backend.jsonl");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-rank-local-"));
let server: ScriptedServer;

const colbench = (args: string[]) => runColbench(dataDir, args);

async function ok(args: string[]): Promise<Record<string, unknown>> {
  const result = await colbench(args);
  expect(result.status, `colbench ${args.join(" ")}\n${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout.trim().split("\n").pop()!) as Record<string, unknown>;
}

async function withDb<T>(use: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase({ pgliteDir: path.join(dataDir, "db"), url: "" });
  try {
    return await use(db);
  } finally {
    await db.close();
  }
}

async function cpuScorer(dir: string): Promise<LocalScorer> {
  const source = folderSource(dir);
  return new LocalScorer(await CpuModel.load(source), await ModelTokenizer.load(source), path.basename(dir));
}

beforeAll(async () => {
  const tasks = fs
    .readFileSync(taskFile, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { problem_description: string; ground_truth: string });
  server = await startScriptedServer({
    tasks: tasks.map((t) => ({ problemDescription: t.problem_description, groundTruth: t.ground_truth })),
  });
  expect((await colbench(["import", taskFile, "--benchmark", "backend"])).status).toBe(0);
  // A short agent prompt keeps the prompts a few hundred tokens long: software WebGPU (CI's) is slow.
  const prompt = path.join(dataDir, "agent-prompt.txt");
  fs.writeFileSync(prompt, "Write the function the human asks for.\n{problem_description}\n{dialogue_history}");
  await ok([
    "run",
    "--benchmark",
    "backend",
    "--tasks",
    "ids=1",
    "--name",
    "local",
    "--agent",
    `${server.url}#ask-then-answer`,
    "--simulator",
    `${server.url}#simulator`,
    "--agent-prompt",
    prompt,
  ]);
  await ok(["candidates", "local", "--policy", `${server.url}#ask-then-answer`, "--n", "2"]);
}, 120_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("colbench rank with the models on this machine", () => {
  it("refuses unclear or missing models with one line", async () => {
    const neither = await colbench(["rank", "local"]);
    expect(neither.status).toBe(1);
    expect(neither.stderr).toContain(
      "give the critic either as a server (--critic URL#MODEL) or as a model folder (--critic-weights DIR)",
    );
    const missing = await colbench(["rank", "local", "--critic-weights", path.join(dataDir, "nothing-here")]);
    expect(missing.stderr).toContain("--critic-weights: ");
    expect(missing.stderr).toContain("nothing-here is not a folder");
    const alone = await colbench(["rank", "local", "--critic", `${server.url}#x`, "--policy-weights", policy]);
    expect(alone.stderr).toContain("--policy-weights goes with --critic-weights");
  });

  it(
    "stores the advantages the CPU reference computes, recomputing the policy's log-probs; a rerun adds nothing",
    { timeout: 240_000 },
    async () => {
      const started = performance.now();
      const result = await colbench(["rank", "local", "--critic-weights", critic, "--policy-weights", policy]);
      console.log(`rank on webgpu: ${((performance.now() - started) / 1000).toFixed(1)} s`);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/rank: scoring on webgpu: /);
      // The template family comes from the critic's own Jinja chat template; the summary names it.
      const summary = JSON.parse(result.stdout.trim().split("\n").pop()!) as { ranked: number; template: string };
      expect(summary.template).toBe("llama3");
      expect(summary.ranked).toBeGreaterThan(3);
      expect(await ok(["rank", "local", "--critic-weights", critic])).toMatchObject({ ranked: 0 });

      const llama = chatTemplate("llama3");
      const [criticCpu, policyCpu] = [await cpuScorer(critic), await cpuScorer(policy)];
      await withDb(async (db) => {
        const candidates = await db.prisma.candidate.findMany({
          orderBy: { id: "asc" },
          include: { turn: { include: { episode: { include: { task: true } } } } },
        });
        expect(candidates).toHaveLength(summary.ranked);
        expect(candidates.every((c) => Number.isFinite(c.advantage) && c.policyModel === "llama-tiny-bf16")).toBe(true);
        // The CPU path runs each prompt whole, which is slow: the first turn's candidates are recomputed.
        const started = performance.now();
        for (const c of candidates.filter((c) => c.turnId === candidates[0]!.turnId)) {
          const input = promptText(llama, c.turn.prompt);
          const want = criticScore(
            llama,
            await criticCpu.promptLogprobs(criticPrompt(llama, c.turn.episode.task.groundTruth, input, c.text)),
          );
          const own = await policyCpu.textLogprobs(input, c.text);
          const policyMean = own.tokens.reduce((a, t) => a + t.logprob, 0) / own.tokens.length;
          expect(Math.abs(c.criticScore! - want)).toBeLessThan(1e-4);
          expect(c.policyModel).toBe("llama-tiny-bf16");
          expect(Math.abs(c.policyMean - policyMean)).toBeLessThan(1e-4);
          expect(Math.abs(c.advantage! - (want - policyMean))).toBeLessThan(2e-4);
        }
        console.log(`CPU reference: ${((performance.now() - started) / 1000).toFixed(1)} s`);
        // A turn's own output is candidate 0; its advantage is the turn's, which the replay charts.
        const own = candidates.find((c) => c.index === 0)!;
        expect((await db.prisma.turn.findUniqueOrThrow({ where: { id: own.turnId } })).advantage).toBeCloseTo(
          own.advantage!,
          9,
        );
      });
    },
  );
});
