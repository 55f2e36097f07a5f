import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../open";
import { migrationNames } from "../migration-files";
import { NewerDatabaseError } from "../versions";
import { startPostgres, type PostgresServer } from "../testing/postgres-server";
import { backupDatabase, restoreBackup } from "../backup";
import { tableContents } from "../backup/testing/contents";
import { storeFor } from "../../store";
import { isBenchmark } from "../../benchmarks";
import { runColbench } from "../../../cli/testing/colbench";

// Upgrades: data folders made by earlier releases' own code (fixtures/README.md) open with today's
// code, which applies every migration they lack, and keep every task, run, episode, turn, person
// and label. The same data reaches PostgreSQL through a backup taken at the old schema. A folder
// migrated by a newer studio is refused with the fix.

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-upgrade-"));
let postgres: PostgresServer | undefined;
afterAll(async () => {
  await postgres?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** Unpacks a fixture into a fresh data folder; returns it. */
function unpack(sha: string): string {
  const dir = fs.mkdtempSync(path.join(scratch, `${sha}-`));
  const tar = zlib.brotliDecompressSync(fs.readFileSync(path.join(import.meta.dirname, "fixtures", `${sha}.tar.br`)));
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  return dir;
}

interface Expected {
  sha: string;
  schema: string;
  counts: { tasks: number; runs: number; episodes: number; turns: number; users: number; labels: number };
}

const fixtures: Expected[] = [
  {
    sha: "c0edc44",
    schema: "20261122055952_init",
    counts: { tasks: 20, runs: 1, episodes: 3, turns: 12, users: 0, labels: 0 },
  },
  // Its turn-totals migration is the file as first released, with statement triggers: 077f220 edited
  // that migration in place later, so folders made before keep the first version (and still work).
  {
    sha: "bb9dc21",
    schema: "20261125193157_episode_turn_totals",
    counts: { tasks: 24, runs: 2, episodes: 8, turns: 32, users: 3, labels: 6 },
  },
  {
    sha: "a692294",
    schema: "20261125201124_run_queue",
    counts: { tasks: 24, runs: 2, episodes: 8, turns: 32, users: 3, labels: 6 },
  },
];

async function counts(db: Database) {
  const p = db.prisma;
  return {
    tasks: await p.task.count(),
    runs: await p.run.count(),
    episodes: await p.episode.count(),
    turns: await p.turn.count(),
    users: await p.user.count(),
    labels: await p.label.count(),
  };
}

/**
 * The benchmark columns, enums when these folders were made, are text now (migration
 * 20261128103835_benchmark_names): every task and run kept its name, one the registry knows, so
 * today's lists show them all.
 */
async function benchmarksKnown(db: Database): Promise<void> {
  const store = storeFor(db.prisma);
  const tasks = await db.prisma.task.findMany({ select: { benchmark: true } });
  expect(tasks.every((t) => isBenchmark(t.benchmark))).toBe(true);
  expect((await store.tasks.counts()).total).toBe(tasks.length);
  expect(await store.runs.list({ includePlayed: true, includeArchived: true })).toHaveLength(
    await db.prisma.run.count(),
  );
}

/** Each episode's stored totals against its turns, as the run pages read them. */
async function totalsAgree(db: Database): Promise<void> {
  const episodes = await db.prisma.episode.findMany({
    select: {
      id: true,
      turnCount: true,
      agentTurnCount: true,
      agentPromptTokens: true,
      turns: { select: { role: true, usage: true } },
    },
  });
  for (const e of episodes) {
    const agent = e.turns.filter((t) => t.role === "agent");
    expect({ id: e.id, turns: e.turnCount, agent: e.agentTurnCount, prompt: e.agentPromptTokens }).toEqual({
      id: e.id,
      turns: e.turns.length,
      agent: agent.length,
      prompt: agent.reduce((n, t) => n + Number((t.usage as { promptTokens?: number } | null)?.promptTokens ?? 0), 0),
    });
  }
}

describe.each(fixtures)("a data folder made by $sha ($schema)", (fixture) => {
  it("opens with today's code, migrates, and keeps everything", async () => {
    const dir = unpack(fixture.sha);
    const names = migrationNames();
    const db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
    try {
      expect(db.applied).toEqual(names.slice(names.indexOf(fixture.schema) + 1));
      expect(await counts(db)).toEqual(fixture.counts);
      await totalsAgree(db);
      const store = storeFor(db.prisma);
      // What the releases wrote reads back through today's store.
      const episode = (await db.prisma.episode.findFirst({ orderBy: { id: "asc" } }))!;
      await benchmarksKnown(db);
      const turns = await store.episodes.turns(episode.id);
      expect(turns.map((t) => t.index)).toEqual([0, 1, 2, 3]);
      expect(turns[0]!.content.length).toBeGreaterThan(10);
      if (fixture.counts.labels) {
        const labels = await db.prisma.label.findMany({ orderBy: { id: "asc" } });
        expect(
          labels
            .filter((l) => l.comment)
            .map((l) => l.comment)
            .sort(),
        ).toEqual(["ann liked it", "bea liked it"]);
        expect((await store.users.list()).map((u) => u.name).sort()).toEqual(["ada", "ann", "bea"]);
      }
      // Writes go on after the upgrade, and the totals follow them (whichever trigger the folder has).
      await store.episodes.appendTurn(episode.id, {
        index: 4,
        role: "simulator",
        content: "one more, after the upgrade",
      });
      expect((await db.prisma.episode.findUnique({ where: { id: episode.id } }))!.turnCount).toBe(5);
      await totalsAgree(db);
    } finally {
      await db.close();
    }
    // Opened again: nothing left to apply.
    const again = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
    expect(again.applied).toEqual([]);
    await again.close();
  });

  it("reaches PostgreSQL through a backup taken at its own schema, and is upgraded there", async () => {
    const dir = unpack(fixture.sha);
    const old = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "", migrate: false });
    const file = path.join(dir, "old.backup.gz");
    let before: Record<string, string[]>;
    try {
      const taken = await backupDatabase(old, file);
      expect(taken.migrations.at(-1)).toBe(fixture.schema);
      before = await tableContents(old.url!);
    } finally {
      await old.close();
    }
    const url = await (postgres ??= await startPostgres()).createDatabase(`upgrade_${fixture.sha}`);
    const restored = await restoreBackup(file, { url });
    const names = migrationNames();
    expect(restored.upgraded).toEqual(names.slice(names.indexOf(fixture.schema) + 1));
    const db = await openDatabase({ url });
    try {
      expect(db.applied).toEqual([]);
      expect(await counts(db)).toEqual(fixture.counts);
      await totalsAgree(db);
      await benchmarksKnown(db);
      // Every row of every table the old schema had is there (new columns aside).
      const after = await tableContents(url);
      for (const table of Object.keys(before)) expect(after[table]!.length, table).toBe(before[table]!.length);
    } finally {
      await db.close();
    }
  });
});

describe("a folder from a newer studio", () => {
  it("is refused, with the fix, by the studio's commands", async () => {
    const dir = unpack("bb9dc21");
    const db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ('future', 'x', '29990101000000_from_the_future', now(), now(), 1)`,
    );
    await db.close();
    await expect(openDatabase({ pgliteDir: path.join(dir, "db"), url: "" })).rejects.toThrow(NewerDatabaseError);
    const serve = await runColbench(dir, ["db", "migrate"]);
    expect(serve.status).toBe(1);
    expect(serve.stderr).toMatch(
      /was migrated by a newer ColBench Studio: .*29990101000000_from_the_future.*Fix: run the newer studio/,
    );
    // Refused before anything was changed: the folder still opens for a backup by the newer studio's peers.
    expect(fs.readdirSync(path.join(dir, "db")).length).toBeGreaterThan(0);
  });
});
