// The data a backup bench backs up, made through the store: one large backend run (episodes of 10
// turns, every other turn with a prompt of 300 words, so ~100,000 turns make a database of a few hundred MB)
// and a labelling queue of two smaller runs, `annotators` members, overlap 1. Shared by
// bench/backup-embedded.ts and bench/backup-postgres.ts.
import fs from "node:fs";
import path from "node:path";
import type { Database } from "../lib/db/open";
import { storeFor } from "../lib/store";
import { processOwner } from "../lib/runs/owner";
import { projectRoot } from "../lib/paths";
import { createRun } from "../lib/runs/create";
import { addUser } from "../lib/access/users";
import { createQueue } from "../lib/label/build";
import { makeRunPair } from "../lib/label/testing/run-pair";

export const TURNS = 10;

export async function makeBackupData(
  db: Database,
  options: { episodes: number; annotators: number; pairs?: number },
): Promise<void> {
  const store = storeFor(db.prisma);
  const taskFile = path.join(projectRoot, "samples", "backend.jsonl");
  await store.tasks.import({ file: taskFile, benchmark: "backend", name: "bench" });
  const taskCount = (await store.tasks.counts()).byBenchmark.backend;
  const spec = { baseUrl: "http://127.0.0.1:9/v1", model: "bench" };
  const bestOf = Math.ceil(options.episodes / taskCount);
  const started = performance.now();
  const run = await createRun(store, {
    benchmark: "backend",
    selector: "all",
    limit: Math.ceil(options.episodes / bestOf),
    bestOf,
    agent: spec,
    simulator: spec,
    name: "bench-large",
  });
  await store.episodes.ensure(run.id, run.config.taskIds, bestOf);
  const rows = await store.episodes.unfinished(run.id);
  // Words of the tasks' own descriptions in a seeded random order: text that compresses as dialogue
  // does (a repeated sentence would compress 40x and hide the cost of compressing).
  const vocabulary = [
    ...new Set(
      fs
        .readFileSync(taskFile, "utf8")
        .split(/\s+/)
        .filter((w) => /^[a-z]{2,}$/i.test(w)),
    ),
  ];
  let seed = 12345;
  const say = (n: number) =>
    Array.from(
      { length: n },
      () => vocabulary[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % vocabulary.length],
    ).join(" ");
  const one = async (id: number, i: number) => {
    await store.episodes.claim(id, processOwner(), 600_000);
    for (let t = 0; t < TURNS; t++) {
      await store.episodes.appendTurn(id, {
        index: t,
        role: t % 2 === 0 ? "simulator" : "agent",
        content: `${i}.${t} ${say(30)}`,
        prompt: t % 2 === 1 ? [{ role: "user", content: say(300) }] : undefined,
        usage: { promptTokens: 300, completionTokens: 40 },
      });
    }
    await store.episodes.finish(id, {
      answer: "def f(x):\n    return x\n",
      reward: (i % 10) / 9,
      details: { tests: [] },
    });
  };
  // A few episodes at a time: the database takes them in turn, the JavaScript between overlaps.
  for (let i = 0; i < rows.length; i += 8) {
    await Promise.all(rows.slice(i, i + 8).map((row, j) => one(row.id, i + j)));
    if (i % 1000 === 0) process.stdout.write(`\r  ${i} episodes`);
  }
  console.log(
    `\r  made ${rows.length} episodes of ${TURNS} turns in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  const runs = await makeRunPair(store, { tasks: options.pairs ?? 3000, prefix: "side" });
  const names = Array.from({ length: options.annotators }, (_, i) => `bench-annotator${i}`);
  for (const name of names) await addUser(store, name, "annotator");
  await createQueue(store, {
    name: "side",
    source: { from: "runs", a: runs.a.name, b: runs.b.name },
    overlap: 1,
    members: names,
  });
}
