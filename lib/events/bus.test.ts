import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPostgres, type PostgresServer } from "../db/testing/postgres-server";
import { openDatabase } from "../db/open";
import { openEventBus } from ".";
import { MemoryBus } from "./memory-bus";
import { PgBus } from "./pg-bus";
import type { EventBus, RunEvent } from "./types";

// Every process on one PostgreSQL server hears every other's events, in the order they were sent;
// within one process the memory bus does the same.

let server: PostgresServer;
let url: string;

beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase(`bus_${process.pid}`);
}, 60_000);
afterAll(async () => server?.stop());

function collect(bus: EventBus, until: number): Promise<RunEvent[]> {
  const seen: RunEvent[] = [];
  return new Promise((resolve) => {
    const off = bus.subscribe((event) => {
      seen.push(event);
      if (seen.length === until) {
        off();
        resolve(seen);
      }
    });
  });
}

const turns = (n: number): RunEvent[] =>
  Array.from({ length: n }, (_, index) => ({
    type: "turn",
    runId: 7,
    episodeId: 11,
    index,
    role: index % 2 ? "agent" : "simulator",
  }));

describe("the PostgreSQL bus", () => {
  it("carries 100 events from one connection to another (and back to the sender), in order", async () => {
    const [sender, viewer] = await Promise.all([PgBus.connect(url), PgBus.connect(url)]);
    try {
      const heard = collect(viewer, 100);
      const echoed = collect(sender, 100);
      for (const event of turns(100)) sender.publish(event);
      expect(await heard).toEqual(turns(100));
      expect(await echoed).toEqual(turns(100));
    } finally {
      await sender.close();
      await viewer.close();
    }
  });

  it("cuts a long error so the event fits a notification, and refuses nothing that fits", async () => {
    const [sender, viewer] = await Promise.all([PgBus.connect(url), PgBus.connect(url)]);
    try {
      const heard = collect(viewer, 1);
      sender.publish({
        type: "episode",
        runId: 1,
        episodeId: 2,
        taskId: 3,
        sample: 0,
        status: "failed",
        error: "x".repeat(20_000),
      });
      const [event] = await heard;
      expect(event).toMatchObject({ type: "episode", status: "failed" });
      expect((event as { error: string }).error.length).toBeLessThanOrEqual(1001);
    } finally {
      await sender.close();
      await viewer.close();
    }
  });

  it("delivers what was published before close() returns", async () => {
    const viewer = await PgBus.connect(url);
    const sender = await PgBus.connect(url);
    const heard = collect(viewer, 20);
    for (const event of turns(20)) sender.publish(event);
    await sender.close();
    expect(await heard).toHaveLength(20);
    await viewer.close();
  });
});

describe("the embedded database's buses", () => {
  it("carry events both ways between the owner's relay and a client's LISTEN/NOTIFY over the owner's socket", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-bus-"));
    const owner = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "", migrate: false });
    try {
      expect(owner.events.hub).toBeDefined();
      const studio = await openEventBus(owner.events);
      // What a `colbench run` in a terminal opens: the PostgreSQL bus on the owner's socket URL.
      const terminal = await openEventBus({ url: owner.url });
      const heardByStudio = collect(studio, 40);
      const heardByTerminal = collect(terminal, 60);
      for (const event of turns(40)) terminal.publish(event);
      expect(await heardByStudio).toEqual(turns(40));
      const back = turns(20).map((e) => ({ ...e, runId: 8 }));
      for (const event of back) studio.publish(event);
      expect(await heardByTerminal).toEqual([...turns(40), ...back]);
      await terminal.close();
      await studio.close();
    } finally {
      await owner.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the memory bus", () => {
  it("hands each event to every subscriber until it unsubscribes", async () => {
    const bus = new MemoryBus();
    const a: RunEvent[] = [];
    const b: RunEvent[] = [];
    bus.subscribe((e) => a.push(e));
    const off = bus.subscribe((e) => b.push(e));
    const [first, second] = turns(2) as [RunEvent, RunEvent];
    bus.publish(first);
    off();
    bus.publish(second);
    expect(a).toEqual([first, second]);
    expect(b).toEqual([first]);
    await bus.close();
  });
});
