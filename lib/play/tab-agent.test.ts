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
import { runConfigSchema } from "../benchmarks/run-config";
import { LocalAgent } from "../gpu/generate/local-agent";
import { openLocalGenerator } from "../gpu/node/local-generator";
import { isMoveRefused } from "./move-refused";
import { Seats, type AwaitedMove } from "./seats";
import { createPlay } from "./create";
import { openPlaySessions } from "./sessions";
import { personSeats, simulatorSeatView } from "./seat-views";

// A person in the collaborator's seat against an agent generated in their tab: the run records the
// served policy as the agent; the tab is sent the prompt a model agent gets (never the hidden side)
// and holds the agent's seat; its moves are stored with that prompt and its token counts.

const policy = path.join(projectRoot, "lib", "gpu", "fixtures", "llama-tiny");
let db: Database;
let store: Store;
let manager: RunManager;
let seats: Seats;
const bus = new MemoryBus();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-tab-agent-"));
const before = process.env.COLBENCH_POLICY_WEIGHTS;

beforeAll(async () => {
  process.env.COLBENCH_POLICY_WEIGHTS = policy;
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
  if (before === undefined) delete process.env.COLBENCH_POLICY_WEIGHTS;
  else process.env.COLBENCH_POLICY_WEIGHTS = before;
  await manager?.close();
  await bus.close();
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const awaited = async (role: "agent" | "simulator", runId: number): Promise<AwaitedMove> => {
  for (;;) {
    const now = seats.awaiting(runId);
    if (now?.role === role) return now;
    await new Promise<RunEvent>((resolve) => {
      const off = bus.subscribe((event) => {
        if (event.type === "awaiting" && event.runId === runId) {
          off();
          resolve(event);
        }
      });
    });
  }
};

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(isMoveRefused(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error("accepted");
};

describe("an agent generated in the collaborator's tab", () => {
  it("is recorded as the served policy, sent only the agent's prompt, held by the last tab to ask, and stored like a model's turn", async () => {
    const task = await db.prisma.task.findFirstOrThrow({ where: { benchmark: "backend" }, orderBy: { id: "asc" } });
    const play = await createPlay(store, manager, {
      benchmark: "backend",
      taskId: task.id,
      seat: "simulator",
      opponent: "tab",
      tab: { temperature: 0.7, topP: 0.9, seed: 5, maxTokens: 12 },
    });
    // Nobody is handed the agent's seat: the collaborator's tab holds it.
    expect(play.links).toEqual([]);
    const run = await db.prisma.run.findUniqueOrThrow({ where: { id: play.runId } });
    const config = runConfigSchema.parse(run.config);
    expect(config.agent).toEqual({
      human: true,
      tab: { model: policy, template: "llama3", topP: 0.9, seed: 5 },
    });
    expect(config.sampling).toMatchObject({ temperature: 0.7, maxTokens: 12 });
    expect(run.kind).toBe("played");
    expect(personSeats(run.config)).toMatchObject({ agent: false, simulator: true });
    const sessions = await openPlaySessions(store);
    expect(sessions.find((s) => s.episodeId === play.episodeId)).toMatchObject({
      humanAgent: false,
      humanSimulator: true,
    });
    const view = (await simulatorSeatView(store, play.episodeId))!;
    expect(view.tabAgent).toEqual({
      model: policy,
      template: "llama3",
      temperature: 0.7,
      topP: 0.9,
      seed: 5,
      maxTokens: 12,
    });

    const first = await awaited("agent", play.runId);
    if (first.role !== "agent") throw new Error("expected the agent's move");
    const request = seats.tabTurn(play.runId, play.episodeId, "tab-A");
    expect(request.messages).toEqual([
      { role: "system", content: config.prompts.agent },
      { role: "user", content: task.problemDescription },
    ]);
    expect(JSON.stringify(request)).not.toContain(task.groundTruth);
    expect(request).toMatchObject({ turn: 0, model: policy, sampling: { temperature: 0.7, topP: 0.9, maxTokens: 12 } });

    // What the tab writes from it is what `--agent local:` writes for the same turn (same prompt, seed, sampling).
    const generator = await openLocalGenerator(policy, { device: "cpu" });
    const tabText = (await generator.chat(request.messages, { maxNewTokens: 12, sampling: request.sampling })).text;
    const local = new LocalAgent(
      { model: policy, device: "cpu", template: "llama3", topP: 0.9, seed: 5 },
      config.prompts.agent,
      { temperature: 0.7, maxTokens: 12 },
      async () => generator,
    );
    expect((await local.act(first.input)).text).toBe(tabText);

    // Only the tab that asked last moves for the agent; nobody types it.
    expect(refusal(() => seats.submitMove(play.runId, play.episodeId, "agent", "typed by a person"))).toContain(
      "a model in the collaborator's tab",
    );
    seats.tabTurn(play.runId, play.episodeId, "tab-B");
    expect(refusal(() => seats.submitMove(play.runId, play.episodeId, "agent", tabText, { tab: "tab-A" }))).toContain(
      "another tab holds the agent's seat",
    );
    seats.submitMove(play.runId, play.episodeId, "agent", tabText, {
      tab: "tab-B",
      usage: { promptTokens: 321, completionTokens: 12 },
    });
    await awaited("simulator", play.runId);
    expect(refusal(() => seats.tabTurn(play.runId, play.episodeId, "tab-B"))).toContain("not the agent's move");

    const [turn] = await db.prisma.turn.findMany({ where: { episodeId: play.episodeId, role: "agent" } });
    expect(turn!.rawOutput ?? turn!.content).toBe(tabText);
    expect(turn!.prompt).toEqual(request.messages);
    expect(turn!.usage).toEqual({ promptTokens: 321, completionTokens: 12 });
    await manager.stop(play.runId);
  }, 120_000);

  it("is refused where the studio serves no policy, and for the agent's seat", async () => {
    await expect(createPlay(store, manager, { benchmark: "backend", seat: "agent", opponent: "tab" })).rejects.toThrow(
      "take the collaborator's seat",
    );
    delete process.env.COLBENCH_POLICY_WEIGHTS;
    try {
      await expect(
        createPlay(store, manager, { benchmark: "backend", seat: "simulator", opponent: "tab" }),
      ).rejects.toThrow("--policy-weights DIR");
    } finally {
      process.env.COLBENCH_POLICY_WEIGHTS = policy;
    }
  });
});
