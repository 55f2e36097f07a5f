import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startStudio, type RunningStudio } from "../e2e/studio";
import { openDatabase, type Database } from "../lib/db/open";
import { startPostgres, type PostgresServer } from "../lib/db/testing/postgres-server";
import { inspectBackup } from "../lib/db/backup";
import { storeFor } from "../lib/store";
import { addUser, signInUrl } from "../lib/access/users";
import { createQueue } from "../lib/label/build";
import { makeRunPair } from "../lib/label/testing/run-pair";
import { projectRoot } from "../lib/paths";
import { runColbench } from "./testing/colbench";

// The done-when of backups: a studio serves, scripted annotators label over HTTP, `colbench db
// backup` runs in a terminal meanwhile, and the file restored into a new place holds every label
// acknowledged before the backup started, no label without its slot (or slot without its label),
// nothing from after the backup ended, and the counts its end line promises. On embedded PGlite (the
// backup is a client of the studio's socket) and on PostgreSQL.

const built = fs.existsSync(path.join(projectRoot, ".next", "BUILD_ID"));
const port = 4610 + (process.pid % 40);
const ANNOTATORS = 6;
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean().catch(() => {});
});

interface Ack {
  user: number;
  item: number;
  sentAt: number;
  ackedAt: number;
}

/** Annotators label until told to stop; every 200 answer is an acknowledged label, with when it was sent and answered. */
function annotate(url: string, queueId: number, tokens: string[]) {
  const acks: Ack[] = [];
  let stop = false;
  let finished = false;
  const done = (async () => {
    const cookies = await Promise.all(tokens.map((token) => signInCookie(url, token)));
    const post = async (cookie: string, action: string, body: unknown) => {
      const response = await fetch(`${url}/api/queues/${queueId}/${action}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        json: (await response.json()) as { pair?: { itemId: number } | null; next?: { itemId: number } | null },
      };
    };
    await Promise.all(
      cookies.map(async (cookie, user) => {
        let current = (await post(cookie, "next", { holding: [] })).json.pair ?? null;
        while (current && !stop) {
          await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 100));
          const sentAt = performance.now();
          const answer = await post(cookie, "labels", {
            itemId: current.itemId,
            side: (["left", "right", "tie"] as const)[user % 3],
            ms: 900,
            holding: [],
          });
          if (answer.status !== 200) throw new Error(`label refused: ${answer.status} ${JSON.stringify(answer.json)}`);
          acks.push({ user, item: current.itemId, sentAt, ackedAt: performance.now() });
          current = answer.json.next ?? null;
        }
      }),
    );
  })().finally(() => (finished = true));
  return { acks, done, stop: () => (stop = true), finished: () => finished };
}

/** Signs in with a link's token as its confirm form does (a bare GET of the link signs no one in). */
async function signInCookie(url: string, token: string): Promise<string> {
  const link = new URL(signInUrl(url, token));
  const response = await fetch(`${url}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
    body: new URLSearchParams({ token: link.searchParams.get("token")! }).toString(),
  });
  const cookie = response.headers.get("set-cookie");
  if (!cookie) throw new Error(`sign-in answered ${response.status} without a cookie: ${await response.text()}`);
  return cookie.split(";")[0]!;
}

async function prepare(db: Database) {
  const store = storeFor(db.prisma);
  const runs = await makeRunPair(store, { tasks: 150, prefix: "live" });
  const tokens: string[] = [];
  for (let i = 0; i < ANNOTATORS; i++) tokens.push((await addUser(store, `annotator${i}`, "annotator")).token);
  const queue = await createQueue(store, {
    name: "live",
    source: { from: "runs", a: runs.a.name, b: runs.b.name },
    overlap: 2,
    members: tokens.map((_, i) => `annotator${i}`),
  });
  const ids = new Map((await store.users.list()).map((u) => [u.name, u.id]));
  return { queueId: queue.id, tokens, userId: (i: number) => ids.get(`annotator${i}`)! };
}

/** What the restored database says, checked against what the annotators were told and when. */
async function verify(
  restored: Database,
  queueId: number,
  acks: Ack[],
  userId: (i: number) => number,
  backupStarted: number,
  backupEnded: number,
) {
  const store = storeFor(restored.prisma);
  const labels = await store.labels.ofQueue(queueId);
  const slots = await store.queues.slots(queueId);
  const stored = new Set(labels.map((l) => `${l.itemId}:${l.userId}`));
  const key = (a: Ack) => `${a.item}:${userId(a.user)}`;
  const before = acks.filter((a) => a.ackedAt < backupStarted);
  const after = acks.filter((a) => a.sentAt > backupEnded);
  expect(before.length).toBeGreaterThan(0);
  expect(before.filter((a) => !stored.has(key(a)))).toEqual([]);
  expect(after.filter((a) => stored.has(key(a)))).toEqual([]);
  // Every stored label came from an acknowledged request or one in flight: none invented.
  const acked = new Set(acks.map(key));
  expect(labels.filter((l) => !acked.has(`${l.itemId}:${l.userId}`))).toEqual([]);
  // A label and its slot are written in one transaction: the snapshot has both or neither.
  const labelledSlots = new Set(slots.filter((s) => s.labelled).map((s) => `${s.itemId}:${s.userId}`));
  expect([...labelledSlots].sort()).toEqual([...stored].sort());
  return { labels: labels.length, before: before.length, after: after.length };
}

describe.each(["pglite", "postgresql"] as const)("a backup while annotators label, on %s", (kind) => {
  it("restores every label acknowledged before it started, whole", async () => {
    expect(built, "the studio is not built: run `npm run build`").toBe(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `colbench-backup-live-${kind}-`));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    let server: PostgresServer | undefined;
    let url = "";
    if (kind === "postgresql") {
      server = await startPostgres();
      cleanups.push(() => server!.stop());
      url = await server.createDatabase("backup_live");
    }
    const env: Record<string, string> = kind === "postgresql" ? { DATABASE_URL: url } : {};
    const seed = await openDatabase(kind === "postgresql" ? { url } : { pgliteDir: path.join(dir, "db"), url: "" });
    const { queueId, tokens, userId } = await prepare(seed);
    await seed.close();

    const studio: RunningStudio = await startStudio(port, dir, env);
    cleanups.push(() => studio.stop("SIGKILL"));
    const crowd = annotate(studio.url, queueId, tokens);
    while (crowd.acks.length < 25) await new Promise((resolve) => setTimeout(resolve, 50));

    const file = path.join(dir, "mid.backup.gz");
    const backupStarted = performance.now();
    const backup = await runColbench(dir, ["db", "backup", file], { env });
    const backupEnded = performance.now();
    expect(backup.stderr).toBe("");
    expect(backup.status).toBe(0);
    expect(backup.stdout).toMatch(/backup of .* written to .*mid\.backup\.gz: \d+ rows/);
    // Labelling goes on after it, then stops.
    const atEnd = crowd.acks.length;
    while (crowd.acks.length < atEnd + 10 && !crowd.finished()) await new Promise((resolve) => setTimeout(resolve, 50));
    crowd.stop();
    await crowd.done;
    expect(await studio.stop("SIGTERM")).toBe(0);

    const summary = await inspectBackup(file);
    const restoredDir = path.join(dir, "restored");
    const restore = await runColbench(restoredDir, ["db", "restore", file, "--into", restoredDir]);
    expect(restore.stderr).toBe("");
    expect(restore.status).toBe(0);
    const restored = await openDatabase({ pgliteDir: path.join(restoredDir, "db"), url: "" });
    cleanups.push(() => restored.close());
    const seen = await verify(restored, queueId, crowd.acks, userId, backupStarted, backupEnded);
    expect(seen.labels).toBe(summary.end.rows.Label);
    expect(seen.labels).toBeLessThan(crowd.acks.length);
    const counts = {
      Label: await restored.prisma.label.count(),
      Turn: await restored.prisma.turn.count(),
      Episode: await restored.prisma.episode.count(),
      User: await restored.prisma.user.count(),
    };
    expect(counts).toEqual({
      Label: summary.end.rows.Label,
      Turn: summary.end.rows.Turn,
      Episode: summary.end.rows.Episode,
      User: summary.end.rows.User,
    });
    await restored.close();

    if (server) {
      // The same file into a new PostgreSQL database.
      const into = await server.createDatabase("backup_live_restored");
      const again = await runColbench(dir, ["db", "restore", file, "--into", into]);
      expect(again.status, again.stderr).toBe(0);
      const onServer = await openDatabase({ url: into });
      cleanups.push(() => onServer.close());
      await verify(onServer, queueId, crowd.acks, userId, backupStarted, backupEnded);
      expect(await onServer.prisma.label.count()).toBe(summary.end.rows.Label);
    }
    // A second restore into the same folder is refused: it holds data now.
    const refused = await runColbench(restoredDir, ["db", "restore", file, "--into", restoredDir]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/already holds a database.*--force/);
  });
});
