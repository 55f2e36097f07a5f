import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/open";
import { projectRoot } from "../paths";
import { importTasks } from "../store/import-tasks";
import { storeFor, type Store } from "../store";
import { MemoryBus } from "../events/memory-bus";
import type { RunEvent } from "../events";
import { RunManager } from "../runs/manager";
import { isMoveRefused } from "./move-refused";
import { Seats, type AwaitedMove } from "./seats";
import { createPlay } from "./create";
import { openPlaySessions } from "./sessions";
import { episodeSeatLinks, handOutSeat } from "./seat-links";

// People in both seats of a backend episode, their moves submitted as the studio's API does:
// real PGlite, the real Python scorer, the run manager and seats that `colbench serve` holds.

let db: Database;
let store: Store;
let manager: RunManager;
let seats: Seats;
const bus = new MemoryBus();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-play-"));

beforeAll(async () => {
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  await importTasks(db.prisma, {
    file: path.join(projectRoot, "samples", "backend.jsonl"),
    benchmark: "backend",
    name: "samples",
  });
  store = storeFor(db.prisma);
  seats = new Seats(bus);
  manager = new RunManager(store, bus, seats.take);
}, 60_000);

afterAll(async () => {
  await manager?.close();
  await bus.close();
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Resolves with the first event on the bus that `match` accepts. */
const heard = <T extends RunEvent>(match: (event: RunEvent) => event is T): Promise<T> =>
  new Promise((resolve) => {
    const off = bus.subscribe((event) => {
      if (match(event)) {
        off();
        resolve(event);
      }
    });
  });

const awaited = async (role: "agent" | "simulator", runId: number): Promise<AwaitedMove> => {
  const now = seats.awaiting(runId);
  if (now?.role === role) return now;
  await heard(
    (e): e is Extract<RunEvent, { type: "awaiting" }> => e.type === "awaiting" && e.runId === runId && e.role === role,
  );
  const move = seats.awaiting(runId);
  if (move?.role !== role) throw new Error(`the bus said the ${role} is awaited, the seats say ${move?.role}`);
  return move;
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
    const play = await createPlay(store, manager, { benchmark: "backend", taskId: task.id, seat: "both" });
    expect((await openPlaySessions(store)).map((s) => [s.episodeId, s.humanAgent, s.humanSimulator])).toContainEqual([
      play.episodeId,
      true,
      true,
    ]);
    // The one who starts it keeps the collaborator's seat, with no key, and hands out the agent's: one key, made here once.
    expect(play.ownUrl).toBe(`/play/${play.episodeId}/collaborator`);
    expect(play.simulatorUrl).toBe(play.ownUrl);
    expect(play.links.map((l) => [l.seat, l.url])).toEqual([["agent", play.agentUrl]]);
    expect(play.agentUrl).toMatch(new RegExp(`^/play/${play.episodeId}/agent\\?key=[\\w-]{43}$`));
    expect((await store.seats.list(play.episodeId)).map((k) => k.seat)).toEqual(["agent"]);

    const first = await awaited("agent", play.runId);
    expect(first.episodeId).toBe(play.episodeId);
    // The agent is shown the task's description only.
    expect(first.input).toMatchObject({ task: { problemDescription: task.problemDescription }, turn: 0 });
    expect(JSON.stringify(first.input)).not.toContain(task.groundTruth);
    expect(refusal(() => seats.submitMove(play.runId, play.episodeId, "simulator", "too early"))).toContain(
      "not the simulator's move",
    );
    expect(refusal(() => seats.submitMove(play.runId, play.episodeId + 1000, "agent", "wrong episode"))).toContain(
      "not the one playing now",
    );

    seats.submitMove(play.runId, play.episodeId, "agent", "Does a parcel that weighs nothing cost anything?");
    const reply = await awaited("simulator", play.runId);
    if (reply.role !== "simulator") throw new Error("expected the simulator's move");
    expect(reply.input.task.groundTruth).toBe(task.groundTruth);

    // Stopping mid-episode keeps what was said; starting again asks the same seat.
    await manager.stop(play.runId);
    expect((await db.prisma.run.findUniqueOrThrow({ where: { id: play.runId } })).status).toBe("paused");
    manager.start(play.runId);
    await awaited("simulator", play.runId);
    seats.submitMove(play.runId, play.episodeId, "simulator", "No, it is free.");
    await awaited("agent", play.runId);
    const done = heard(
      (e): e is Extract<RunEvent, { type: "episode" }> =>
        e.type === "episode" && e.runId === play.runId && e.status !== "running",
    );
    seats.submitMove(play.runId, play.episodeId, "agent", `I WANT TO ANSWER:\n${task.groundTruth}`);
    const event = await done;
    expect(event).toMatchObject({ status: "done", reward: 1 });

    const episode = await db.prisma.episode.findUniqueOrThrow({ where: { id: play.episodeId } });
    expect(episode).toMatchObject({ status: "done", reward: 1, humanSimulated: true });
    expect((await store.episodes.turns(play.episodeId)).map((t) => t.role)).toEqual([
      "simulator",
      "agent",
      "simulator",
      "agent",
    ]);
    // Playing it made no other key; a finished episode has no seat left to hand out.
    expect((await episodeSeatLinks(store, play.episodeId))!.links.map((l) => [l.seat, l.status])).toEqual([
      ["agent", "open"],
    ]);
    await expect(handOutSeat(store, play.episodeId, "agent")).rejects.toThrow(/has ended/);
  }, 60_000);

  it("hands out only a person's seat, and makes no key for a seat its starter takes or a model plays", async () => {
    const task = await db.prisma.task.findFirstOrThrow({ where: { benchmark: "backend" }, orderBy: { id: "desc" } });
    const solo = await createPlay(store, manager, {
      benchmark: "backend",
      taskId: task.id,
      seat: "agent",
      opponent: "http://127.0.0.1:9/v1#nobody",
    });
    expect([solo.ownUrl, solo.agentUrl, solo.links]).toEqual([
      `/play/${solo.episodeId}/agent`,
      `/play/${solo.episodeId}/agent`,
      [],
    ]);
    expect(await store.seats.list(solo.episodeId)).toEqual([]);
    await expect(handOutSeat(store, solo.episodeId, "simulator")).rejects.toThrow(
      /a model server plays the collaborator/,
    );
    const issued = await handOutSeat(store, solo.episodeId, "agent", 2);
    expect(issued.url).toMatch(new RegExp(`^/play/${solo.episodeId}/agent\\?key=`));
    const listed = (await episodeSeatLinks(store, solo.episodeId))!;
    expect(listed.people).toEqual({ agent: true, simulator: false });
    expect(listed.links.map((l) => [l.id, l.seat, l.status])).toEqual([[issued.id, "agent", "open"]]);
    await expect(handOutSeat(store, 999_999, "agent")).rejects.toThrow(/no episode 999999/);
    await manager.stop(solo.runId);
  });

  it("refuses a model server address it cannot parse, and a task of the other benchmark", async () => {
    await expect(
      createPlay(store, manager, { benchmark: "backend", seat: "agent", opponent: "not a url" }),
    ).rejects.toThrow("opponent (simulator): expected URL#MODEL");
    await expect(createPlay(store, manager, { benchmark: "frontend", taskId: 1, seat: "both" })).rejects.toThrow(
      "task 1 is a backend task",
    );
  });
});
