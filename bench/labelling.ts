// Many people labelling at once, over HTTP against the built studio (`colbench serve`): 50 scripted
// annotators label a 2000-pair queue with overlap 3 for 60 s (each "reads" a pair for a random
// 200-600 ms, COLBENCH_BENCH_THINK_MS=LOW-HIGH to change, then presses a key), then run on without
// pausing until the queue drains. On embedded
// PGlite and on a throwaway PostgreSQL cluster. Checked at the end, from the database: every
// acknowledged label is stored, no pair has more labels than its overlap, no one labelled a pair
// twice, every slot is labelled. Printed: the time from sending a label to holding the next pair
// (the label request's answer carries it), p50/p95/p99, against the peer measured in the same run
// by the same clients: GET /api/health, the studio's bare HTTP round trip.
//
//   npm run build && npx tsx bench/labelling.ts [pglite|postgresql|both] [annotators=50] [pairs=2000] [overlap=3] [seconds=60]

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "../lib/db/open";
import { startPostgres, type PostgresServer } from "../lib/db/testing/postgres-server";
import { storeFor } from "../lib/store";
import { addUser } from "../lib/access/users";
import { createQueue } from "../lib/label/build";
import { makeRunPair } from "../lib/label/testing/run-pair";
import { projectRoot } from "../lib/paths";
import { startStudio } from "../e2e/studio";

const which = process.argv[2] ?? "both";
const ANNOTATORS = Number(process.argv[3] ?? 50);
const PAIRS = Number(process.argv[4] ?? 2000);
const OVERLAP = Number(process.argv[5] ?? 3);
const SECONDS = Number(process.argv[6] ?? 60);
const PORT = Number(process.env.COLBENCH_E2E_PORT ?? 3210) + 6;
const SIDES = ["left", "right", "tie", "both_bad"] as const;
// How long a scripted annotator looks at a pair before pressing a key, in the timed window (ms, uniform).
const [THINK_LOW, THINK_HIGH] = (process.env.COLBENCH_BENCH_THINK_MS ?? "200-600").split("-").map(Number) as [number, number];

if (!fs.existsSync(path.join(projectRoot, ".next", "BUILD_ID"))) {
  console.error("bench/labelling: the studio is not built: run `npm run build` first");
  process.exit(2);
}

interface Pair {
  itemId: number;
}

const percentile = (xs: number[], q: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const fmt = (xs: number[]) => `p50 ${percentile(xs, 0.5).toFixed(1)} ms, p95 ${percentile(xs, 0.95).toFixed(1)} ms, p99 ${percentile(xs, 0.99).toFixed(1)} ms (n=${xs.length})`;

async function prepare(db: Database): Promise<{ queueId: number; tokens: string[] }> {
  const store = storeFor(db.prisma);
  const started = performance.now();
  const runs = await makeRunPair(store, { tasks: PAIRS, prefix: "bench" });
  const tokens: string[] = [];
  for (let i = 0; i < ANNOTATORS; i++) tokens.push((await addUser(store, `annotator${i}`, "annotator")).token);
  const queue = await createQueue(store, { name: "bench", source: { from: "runs", a: runs.a.name, b: runs.b.name }, overlap: OVERLAP, members: Array.from({ length: ANNOTATORS }, (_, i) => `annotator${i}`) });
  console.log(`  prepared ${queue.items} pairs, ${queue.slots} slots, ${ANNOTATORS} annotators in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { queueId: queue.id, tokens };
}

async function label(url: string, queueId: number, tokens: string[], alive: () => boolean) {
  const cookies: string[] = [];
  for (const token of tokens) {
    // A sign-in link only asks to confirm; the confirming POST starts the session.
    const response = await fetch(`${url}/signin`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `token=${encodeURIComponent(token)}`, redirect: "manual" });
    cookies.push(response.headers.get("set-cookie")!.split(";")[0]!);
  }
  const acknowledged: Array<{ user: number; item: number }> = [];
  const timed: number[] = [];
  const draining: number[] = [];
  const health: number[] = [];
  let refused = 0;
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  let labelledInWindow = 0;

  let resets = 0;
  // A connection the server closed as the client reused it (keep-alive) is tried again: every
  // desk request may be sent twice (a label sent again is recognised and stored once).
  const post = async <T>(cookie: string, action: string, body: unknown): Promise<{ status: number; json: T }> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(`${url}/api/queues/${queueId}/${action}`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify(body) });
        return { status: response.status, json: (await response.json()) as T };
      } catch (error) {
        if (!alive()) throw new Error(`the studio died: ${(error as Error).message}`);
        if (attempt >= 3) throw error;
        resets++;
      }
    }
  };

  await Promise.all(
    cookies.map(async (cookie, user) => {
      let current = (await post<{ pair: Pair | null }>(cookie, "next", { holding: [] })).json.pair;
      let ahead = current ? (await post<{ pair: Pair | null }>(cookie, "next", { holding: [current.itemId] })).json.pair : null;
      for (let n = 0; current; n++) {
        const inWindow = performance.now() < deadline;
        if (inWindow) await new Promise((r) => setTimeout(r, THINK_LOW + Math.random() * (THINK_HIGH - THINK_LOW)));
        const t0 = performance.now();
        const { status, json } = await post<{ next: Pair | null }>(cookie, "labels", { itemId: current.itemId, side: SIDES[Math.floor(Math.random() * 4)], ms: 1000, holding: ahead ? [ahead.itemId] : [] });
        const took = performance.now() - t0;
        (t0 < deadline ? timed : draining).push(took);
        if (status === 200) {
          acknowledged.push({ user, item: current.itemId });
          if (t0 < deadline) labelledInWindow++;
        } else refused++;
        current = ahead ?? json.next ?? null;
        ahead = ahead ? (json.next ?? null) : null;
        if (current && !ahead) ahead = (await post<{ pair: Pair | null }>(cookie, "next", { holding: [current.itemId] })).json.pair;
        if (n % 10 === 0 && performance.now() < deadline) {
          const h0 = performance.now();
          const ok = await fetch(`${url}/api/health`).then((r) => r.text()).then(() => true, () => false);
          if (ok) health.push(performance.now() - h0);
        }
      }
    }),
  );
  return { acknowledged, timed, draining, health, refused, resets, labelledInWindow, drainedAfter: (performance.now() - start) / 1000, cookies };
}

async function verify(db: Database, queueId: number, acknowledged: Array<{ user: number; item: number }>, userIds: Map<string, number>) {
  const store = storeFor(db.prisma);
  const labels = await store.labels.ofQueue(queueId);
  const slots = await store.queues.slots(queueId);
  const stored = new Set(labels.map((l) => `${l.itemId}:${l.userId}`));
  const acked = new Set(acknowledged.map((a) => `${a.item}:${userIds.get(`annotator${a.user}`)}`));
  const perItem = new Map<number, number>();
  for (const l of labels) perItem.set(l.itemId, (perItem.get(l.itemId) ?? 0) + 1);
  const missing = [...acked].filter((k) => !stored.has(k)).length;
  const overOverlap = [...perItem.values()].filter((n) => n > OVERLAP).length;
  return {
    labels: labels.length,
    acknowledged: acknowledged.length,
    missing,
    unacknowledgedExtra: [...stored].filter((k) => !acked.has(k)).length,
    twice: labels.length - stored.size,
    overOverlap,
    unlabelledSlots: slots.filter((s) => !s.labelled).length,
    ok: missing === 0 && overOverlap === 0 && labels.length === stored.size && slots.every((s) => s.labelled) && labels.length === PAIRS * OVERLAP,
  };
}

async function bench(kind: "pglite" | "postgresql") {
  console.log(`\n${kind}: ${ANNOTATORS} annotators, ${PAIRS} pairs, overlap ${OVERLAP}, ${SECONDS} s reading each pair ${THINK_LOW}-${THINK_HIGH} ms, then to the end with no pause`);
  let server: PostgresServer | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-bench-label-"));
  const open = async () => (kind === "pglite" ? openDatabase({ pgliteDir: path.join(dir, "db"), url: "" }) : openDatabase({ url: databaseUrl! }));
  let databaseUrl: string | undefined;
  if (kind === "postgresql") {
    server = await startPostgres();
    databaseUrl = await server.createDatabase("bench_labelling");
    console.log(`  ${server.version}`);
  }
  let db = await open();
  const { queueId, tokens } = await prepare(db);
  const userIds = new Map((await storeFor(db.prisma).users.list()).map((u) => [u.name, u.id]));
  await db.close();
  const studio = await startStudio(PORT, dir, kind === "postgresql" ? { DATABASE_URL: databaseUrl! } : {});
  try {
    const run = await label(studio.url, queueId, tokens, () => studio.process.exitCode === null).catch((error: Error) => {
      throw new Error(`${error.message}\n${studio.output().slice(-3000)}`);
    });
    console.log(`  labelled ${run.labelledInWindow} in the first ${SECONDS} s (${(run.labelledInWindow / SECONDS).toFixed(1)}/s); the queue drained after ${run.drainedAfter.toFixed(1)} s; refused ${run.refused}; connections reset and retried ${run.resets}`);
    console.log(`  label request -> next pair, ${SECONDS} s at a reading pace: ${fmt(run.timed)}`);
    console.log(`  peer, GET /api/health in the same window:         ${fmt(run.health)}`);
    console.log(`  ratio p95 label / p95 health: ${(percentile(run.timed, 0.95) / percentile(run.health, 0.95)).toFixed(2)}`);
    if (run.draining.length) console.log(`  label request -> next pair, draining with no pause (50 at once): ${fmt(run.draining)}`);
    const code = await studio.stop();
    if (code !== 0) throw new Error(`studio exited with ${code}:\n${studio.output()}`);
    db = await open();
    const check = await verify(db, queueId, run.acknowledged, userIds);
    await db.close();
    console.log(`  check: ${JSON.stringify(check)}`);
    if (!check.ok) process.exitCode = 1;
  } finally {
    if (studio.process.exitCode === null) await studio.stop("SIGKILL");
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

for (const kind of which === "both" ? (["pglite", "postgresql"] as const) : ([which] as Array<"pglite" | "postgresql">)) await bench(kind);
