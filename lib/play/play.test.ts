import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/open";
import { projectRoot } from "../paths";
import { importTasks } from "../store/import-tasks";
import { loadTurns } from "../store/episodes";
import { RunManager, type AwaitedMove } from "../runs/manager";
import { isMoveRefused } from "../runs/move-refused";
import { createPlay } from "./create";
import { openPlaySessions } from "./sessions";

// People in both seats of a backend episode, their moves submitted as the studio's API does:
// real PGlite, the real Python scorer, the run manager that `colbench serve` holds.

let db: Database;
let manager: RunManager;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-play-"));

beforeAll(async () => {
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  await importTasks(db.prisma, { file: path.join(projectRoot, "samples", "backend.jsonl"), benchmark: "backend", name: "samples" });
  manager = new RunManager(db.prisma);
}, 60_000);

afterAll(async () => {
  await manager?.close();
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const awaited = async (role: "agent" | "simulator", runId: number): Promise<AwaitedMove> => {
  const now = manager.awaiting(runId);
  if (now?.role === role) return now;
  for (;;) {
    const [move] = (await once(manager.events, "awaiting")) as [AwaitedMove];
    if (move.runId === runId && move.role === role) return move;
  }
};

const refusal = (fn: () => void): string => {
  try {
    fn();
  } catch (error) {
    expect(isMoveRefused(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error("the move was accepted");
};

describe("an episode played by two people", () => {
  it("takes moves only in turn, survives a stop, and is scored and marked human-simulated", async () => {
    const task = await db.prisma.task.findFirstOrThrow({ where: { benchmark: "backend" }, orderBy: { id: "asc" } });
    const play = await createPlay(db.prisma, manager, { benchmark: "backend", taskId: task.id, seat: "both" });
    expect((await openPlaySessions(db.prisma)).map((s) => [s.episodeId, s.humanAgent, s.humanSimulator])).toContainEqual([play.episodeId, true, true]);

    const first = await awaited("agent", play.runId);
    expect(first.episodeId).toBe(play.episodeId);
    // The agent is shown the task's description only.
    expect(first.input).toMatchObject({ task: { problemDescription: task.problemDescription }, turn: 0 });
    expect(JSON.stringify(first.input)).not.toContain(task.groundTruth);
    expect(refusal(() => manager.submitMove(play.runId, play.episodeId, "simulator", "too early"))).toContain("not the simulator's move");
    expect(refusal(() => manager.submitMove(play.runId, play.episodeId + 1000, "agent", "wrong episode"))).toContain("not the one playing now");

    manager.submitMove(play.runId, play.episodeId, "agent", "Does a parcel that weighs nothing cost anything?");
    const reply = await awaited("simulator", play.runId);
    if (reply.role !== "simulator") throw new Error("expected the simulator's move");
    expect(reply.input.task.groundTruth).toBe(task.groundTruth);

    // Stopping mid-episode keeps what was said; starting again asks the same seat.
    await manager.stop(play.runId);
    expect((await db.prisma.run.findUniqueOrThrow({ where: { id: play.runId } })).status).toBe("paused");
    manager.start(play.runId);
    await awaited("simulator", play.runId);
    manager.submitMove(play.runId, play.episodeId, "simulator", "No, it is free.");
    await awaited("agent", play.runId);
    const done = once(manager.events, "episode");
    manager.submitMove(play.runId, play.episodeId, "agent", `I WANT TO ANSWER:\n${task.groundTruth}`);
    const [event] = (await done) as [{ status: string; reward: number }];
    expect(event).toMatchObject({ status: "done", reward: 1 });

    const episode = await db.prisma.episode.findUniqueOrThrow({ where: { id: play.episodeId } });
    expect(episode).toMatchObject({ status: "done", reward: 1, humanSimulated: true });
    expect((await loadTurns(db.prisma, play.episodeId)).map((t) => t.role)).toEqual(["simulator", "agent", "simulator", "agent"]);
  }, 60_000);

  it("refuses a model server address it cannot parse, and a task of the other benchmark", async () => {
    await expect(createPlay(db.prisma, manager, { benchmark: "backend", seat: "agent", opponent: "not a url" })).rejects.toThrow("opponent (simulator): expected URL#MODEL");
    await expect(createPlay(db.prisma, manager, { benchmark: "frontend", taskId: 1, seat: "both" })).rejects.toThrow("task 1 is a backend task");
  });
});
