import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeFor } from "../store";
import type { Prisma } from "../db/generated/client";
import { openDatabase, type Database } from "../db/open";
import { importTasks } from "../store/import-tasks";
import { exportOfficial, importTrajectories } from "../store/trajectories";
import { projectRoot, sharedColbenchDir } from "../paths";
import { parseServerSpec } from "../colbench/server-spec";
import { startScriptedServer, type ScriptedServer } from "../../e2e/fixtures/scripted-model-server";
import { createRun } from "./create";
import { executeRun } from "./runner";
import { modelServices } from "./services";
import { openScorer } from "./open-scorer";
import { rescoreRun } from "./rescore";
import { runRenderProfile } from "../benchmarks/frontend/run-options";
import { frontendRuntime } from "../benchmarks/frontend/runtime";
import type { OpenScorer } from "../benchmarks/scorer";

// A frontend run end to end: proposals rendered in Chromium and shown to the simulator as images,
// the final page scored by similarity to the target, then the official JSONL round trip.

const official = path.join(sharedColbenchDir(), "frontend_test.jsonl");
// Ten real pages when this workspace has the official set, else the project's six samples.
const taskFile = fs.existsSync(official) ? official : path.join(projectRoot, "samples", "frontend.jsonl");
const limit = fs.existsSync(official) ? 10 : 6;

let db: Database;
let server: ScriptedServer;
let scorer: OpenScorer;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-frontend-run-"));

beforeAll(async () => {
  process.env.COLBENCH_DATA = dir;
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  await importTasks(db.prisma, { file: taskFile, benchmark: "frontend", name: "pages" });
  const tasks = await db.prisma.task.findMany({ select: { problemDescription: true, groundTruth: true } });
  server = await startScriptedServer({ tasks });
  scorer = await openScorer({ benchmark: "frontend", embedder: "default" });
}, 180_000);

afterAll(async () => {
  await scorer?.close();
  await server?.close();
  await db?.close();
  delete process.env.COLBENCH_DATA;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe(`a ${limit}-task frontend run`, () => {
  it(
    "renders every proposal for the simulator, scores the final page, and round-trips the official JSONL",
    { timeout: 300_000 },
    async () => {
      const spec = (model: string) => parseServerSpec(`${server.url}#${model}`);
      const run = await createRun(storeFor(db.prisma), {
        benchmark: "frontend",
        selector: "all",
        limit,
        agent: spec("ask-then-answer"),
        simulator: spec("simulator"),
        concurrency: 2,
        name: "pages",
      });
      const stats = await executeRun(storeFor(db.prisma), run.id, {
        ...scorer.services,
        ...modelServices(frontendRuntime, scorer),
      });
      expect(stats.counts).toMatchObject({ total: limit, done: limit, failed: 0 });

      const episodes = await db.prisma.episode.findMany({
        where: { runId: run.id },
        include: { turns: { orderBy: { index: "asc" } }, task: true },
      });
      for (const episode of episodes) {
        const drafts = episode.turns.filter((t) => t.role === "agent" && t.html);
        expect(drafts.length).toBe(3);
        expect(drafts.every((t) => /^[0-9a-f]{64}$/.test(t.renderId ?? ""))).toBe(true);
        // The simulator was shown two images (the draft and the target) and its stored prompt keeps them by id.
        const reply = episode.turns[2]!;
        expect(reply.content).toMatch(/received 2 images/);
        expect(JSON.stringify(reply.prompt)).toContain(`render:${drafts[0]!.renderId}`);
        expect(JSON.stringify(reply.prompt)).not.toContain("data:image");
        // The agent answered with the target page itself: the same render, similarity 1.
        expect(episode.answer?.trim()).toBe(episode.task.groundTruth.trim());
        expect(episode.reward).toBeCloseTo(1, 5);
        expect(episode.details).toMatchObject({
          embedder: expect.stringMatching(/^default/) as unknown,
          answerStatus: "ok",
          targetStatus: "ok",
        });
      }

      // Scored under the default profile, which the run records.
      expect(runRenderProfile((await db.prisma.run.findUniqueOrThrow({ where: { id: run.id } })).config)).toEqual({
        name: "paper",
        browser: "chromium",
        placeholders: "generated",
      });
      expect(episodes[0]!.details).toMatchObject({ profile: { name: "paper", browser: "chromium" } });

      const exported: string[] = [];
      for await (const t of exportOfficial(db.prisma, run.id)) exported.push(JSON.stringify(t));
      const file = path.join(dir, "pages.jsonl");
      fs.writeFileSync(file, exported.join("\n") + "\n");
      const imported = await importTrajectories(db.prisma, file, { name: "pages-again" });
      expect(imported).toMatchObject({ episodes: limit, tasksCreated: 0, problems: [] });
      const again: string[] = [];
      for await (const t of exportOfficial(db.prisma, imported.runId)) again.push(JSON.stringify(t));
      expect(again).toEqual(exported);
    },
  );

  it(
    "rescores a run stored before render profiles (read as studio-1280) under the paper profile, replacing every score at once",
    { timeout: 300_000 },
    async () => {
      const store = storeFor(db.prisma);
      const spec = (model: string) => parseServerSpec(`${server.url}#${model}`);
      const legacyScorer = await openScorer({
        benchmark: "frontend",
        embedder: "default",
        render: { name: "studio-1280", browser: "chromium", placeholders: "generated" },
      });
      try {
        const run = await createRun(store, {
          benchmark: "frontend",
          selector: "all",
          limit: 3,
          agent: spec("ask-then-answer"),
          simulator: spec("simulator"),
          concurrency: 2,
          name: "legacy",
          options: { profile: "studio-1280" },
        });
        await executeRun(store, run.id, { ...legacyScorer.services, ...modelServices(frontendRuntime, legacyScorer) });
        // As a run stored before profiles existed: no render field at all.
        const { render: _gone, ...legacy } = run.config as Record<string, Prisma.InputJsonValue>;
        await db.prisma.run.update({ where: { id: run.id }, data: { config: legacy } });
        expect(runRenderProfile(legacy)).toEqual({
          name: "studio-1280",
          browser: "chromium",
          placeholders: "generated",
        });
        const old = await db.prisma.episode.findMany({ where: { runId: run.id }, orderBy: { id: "asc" } });
        expect(old.every((e) => (e.details as { profile: { name: string } }).profile.name === "studio-1280")).toBe(
          true,
        );

        const progress: number[] = [];
        const result = await rescoreRun(store, run.id, { profile: "paper", onProgress: (done) => progress.push(done) });
        expect(result).toMatchObject({
          episodes: 3,
          from: { name: "studio-1280" },
          to: { name: "paper", browser: "chromium", placeholders: "generated" },
        });
        expect(progress).toEqual([1, 2, 3]);
        const now = await db.prisma.episode.findMany({ where: { runId: run.id }, orderBy: { id: "asc" } });
        for (const [i, e] of now.entries()) {
          expect(e.details).toMatchObject({ profile: { name: "paper" } });
          // Other renders: the target's id changes with the profile; the answer is the target, so the reward stays 1.
          expect((e.details as { targetRender: string }).targetRender).not.toBe(
            (old[i]!.details as { targetRender: string }).targetRender,
          );
          expect(e.reward).toBeCloseTo(1, 5);
        }
        const config = (await db.prisma.run.findUniqueOrThrow({ where: { id: run.id } })).config as {
          render: unknown;
          rescored: { from: unknown }[];
        };
        expect(config.render).toEqual({ name: "paper", browser: "chromium", placeholders: "generated" });
        expect(config.rescored.map((r) => r.from)).toEqual([
          { name: "studio-1280", browser: "chromium", placeholders: "generated" },
        ]);
      } finally {
        await legacyScorer.close();
      }
    },
  );
});
