import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../lib/db/open";
import { projectRoot } from "../lib/paths";
import { runColbench } from "./testing/colbench";
import { startScriptedServer, type ScriptedServer } from "../e2e/fixtures/scripted-model-server";

// kill -9 `colbench run` at an arbitrary moment, `colbench resume`, and check that every task has
// exactly k scored episodes whose turns are whole: none duplicated, none lost.

const bin = path.join(projectRoot, "cli", "bin.mjs");
const taskFile = path.join(projectRoot, "samples", "backend.jsonl");
const K = 2;
let server: ScriptedServer;

beforeAll(async () => {
  const tasks = fs
    .readFileSync(taskFile, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { problem_description: string; ground_truth: string })
    .map((t) => ({ problemDescription: t.problem_description, groundTruth: t.ground_truth }));
  server = await startScriptedServer({ tasks, slowMs: 40 });
});
afterAll(async () => server?.close());

const colbench = (dataDir: string, args: string[]) => runColbench(dataDir, args);

async function runAndKill(dataDir: string, name: string, killAfterMs: number): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      bin,
      "run",
      "--benchmark",
      "backend",
      "--tasks",
      "source=backend.jsonl",
      "--best-of",
      String(K),
      "--concurrency",
      "6",
      "--name",
      name,
      "--agent",
      `${server.url}#slow:150`,
      "--simulator",
      `${server.url}#simulator`,
    ],
    {
      cwd: projectRoot,
      env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let err = "";
  child.stderr.on("data", (chunk) => (err += chunk));
  // Kill only once the run exists and (but for the early kill) its agent has been asked something,
  // then after the given time: a busy machine's start-up does not eat into it.
  const deadline = Date.now() + 60_000;
  const asked = server.stats().requests;
  const ready = () => err.includes(`run "${name}"`) && (killAfterMs < 1000 || server.stats().requests > asked);
  while (!ready() && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, killAfterMs));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  return err;
}

describe("colbench run survives kill -9", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-crash-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  beforeAll(async () => {
    const imported = await colbench(dataDir, ["import", taskFile, "--benchmark", "backend"]);
    expect(imported.status, imported.stderr).toBe(0);
  });

  it.each([
    ["early", 300],
    ["mid-run", 1200],
    ["late", 2200],
  ])(
    "resumes after a kill %s and ends with exactly k scored episodes per task",
    { timeout: 180_000 },
    async (label, killAfterMs) => {
      const name = `crash-${label}`;
      await runAndKill(dataDir, name, killAfterMs);
      // The kill must have interrupted the run, not followed it.
      const before = await openDatabase({ pgliteDir: path.join(dataDir, "db"), url: "" });
      try {
        const run = await before.prisma.run.findUniqueOrThrow({ where: { name } });
        const done = await before.prisma.episode.count({ where: { runId: run.id, status: "done" } });
        const total = await before.prisma.episode.count({ where: { runId: run.id } });
        const turns = await before.prisma.turn.count({ where: { episode: { runId: run.id } } });
        // (Killed that early, the run may not have made its episodes yet: resume must make them.)
        if (total > 0) expect(done).toBeLessThan(total);
        if (label !== "early") expect(turns).toBeGreaterThan(0);
      } finally {
        await before.close();
      }
      const resumed = await colbench(dataDir, ["resume", name, "--out", path.join(dataDir, `${name}.jsonl`)]);
      expect(resumed.status, resumed.stderr).toBe(0);
      const summary = JSON.parse(resumed.stdout.trim().split("\n").pop()!) as { failed: number; episodes: number };
      expect(summary.failed).toBe(0);

      const db = await openDatabase({ pgliteDir: path.join(dataDir, "db"), url: "" });
      try {
        const run = await db.prisma.run.findUniqueOrThrow({ where: { name } });
        const tasks = await db.prisma.task.count({ where: { source: "backend.jsonl" } });
        const episodes = await db.prisma.episode.findMany({
          where: { runId: run.id },
          include: { turns: { orderBy: { index: "asc" } } },
        });
        expect(episodes).toHaveLength(tasks * K);
        const perTask = new Map<number, number[]>();
        for (const episode of episodes) {
          expect(episode.status).toBe("done");
          expect(episode.reward).not.toBeNull();
          perTask.set(episode.taskId, [...(perTask.get(episode.taskId) ?? []), episode.sample]);
          // Whole dialogues: contiguous indices, strictly alternating roles, ending with the answer.
          expect(episode.turns.map((t) => t.index)).toEqual(episode.turns.map((_, i) => i));
          episode.turns.forEach((t, i) => expect(t.role).toBe(i % 2 === 0 ? "simulator" : "agent"));
          expect(episode.turns.at(-1)!.content).toContain("I WANT TO ANSWER:");
        }
        expect([...perTask.values()].every((samples) => samples.sort().join() === "0,1")).toBe(true);
        expect(run.status).toBe("done");
      } finally {
        await db.close();
      }
      const lines = fs
        .readFileSync(path.join(dataDir, `${name}.jsonl`), "utf8")
        .trim()
        .split("\n");
      expect(lines).toHaveLength(summary.episodes);
    },
  );
});
