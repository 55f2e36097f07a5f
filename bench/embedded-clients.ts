// What a query costs a client of the embedded database (through the owner's socket: the pg driver,
// loopback TCP, the wire server and its session gate) against the owner's own query on the same
// PGlite (over the MessagePort to the database's thread), measured in the same run, taking turns
// every 100 operations. Both are timed end to end and by how long they keep this process's event
// loop busy (event-loop utilisation: the database's own work is in its thread and not counted).
//
// Workload: a read of one task by id (what pages and runs do most) and an insert of one task (a
// statement and its implicit transaction), each alone and 8 at a time.
//
//   npx tsx bench/embedded-clients.ts [operations=2000]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase, type Database } from "../lib/db/open";
import { storeFor } from "../lib/store";

const operations = Number(process.argv[2] ?? 2000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-bench-clients-"));
const owner = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "", command: "bench owner" });
// A second opener in this process is the owner's socket client, as another process would be.
const client = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "", takeOver: false });
if (client.role !== "client") throw new Error(`expected a client, got ${client.role}`);
await storeFor(owner.prisma).tasks.seedSamplesIfEmpty();
const ids = (await owner.prisma.task.findMany({ select: { id: true } })).map((t) => t.id);

let serial = 0;
const ops = {
  read: (db: Database, i: number) => db.prisma.task.findUnique({ where: { id: ids[i % ids.length]! } }),
  insert: (db: Database) =>
    db.prisma.task.create({
      data: {
        benchmark: "backend",
        problemDescription: "bench",
        groundTruth: "def f(): pass",
        testCases: [],
        source: "bench",
        sourceIndex: 1,
        contentHash: `bench-${serial++}`,
      },
    }),
};

async function measure(
  db: Database,
  op: keyof typeof ops,
  count: number,
  parallel: number,
): Promise<{ ms: number; busy: number }> {
  let next = 0;
  const loop = performance.eventLoopUtilization();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await ops[op](db, next++);
    }),
  );
  return { ms: performance.now() - started, busy: performance.eventLoopUtilization(loop).active };
}

console.log(
  `${operations} operations per case; the owner (MessagePort to the database's thread) vs a socket client, alternating every 100`,
);
for (const op of ["read", "insert"] as const) {
  for (const parallel of [1, 8]) {
    await measure(owner, op, 50, parallel); // warm-up
    await measure(client, op, 50, parallel);
    const time = { owner: 0, client: 0 };
    const busy = { owner: 0, client: 0 };
    for (let done = 0; done < operations; done += 100) {
      for (const [who, db] of [
        ["owner", owner],
        ["client", client],
      ] as const) {
        const m = await measure(db, op, 100, parallel);
        time[who] += m.ms;
        busy[who] += m.busy;
      }
    }
    const per = (ms: number) => ((ms / operations) * 1000).toFixed(0);
    console.log(
      `${op.padEnd(6)} x${parallel}: owner ${per(time.owner)} µs/op (loop busy ${per(busy.owner)}), client ${per(time.client)} µs/op (loop busy ${per(busy.client)}), client/owner ${(time.client / time.owner).toFixed(2)}, loop ${(busy.client / busy.owner).toFixed(2)}`,
    );
  }
}
await client.close();
await owner.close();
fs.rmSync(dir, { recursive: true, force: true });
