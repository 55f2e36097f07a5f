import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "./open";
import { readLock } from "./lock";
import { applyMigrations, migrationNames, pendingSchemaSql } from "./migrate";
import { startPostgres, type PostgresServer } from "./testing/postgres-server";
import { importTasks } from "../store/import-tasks";
import { getTask, listTasks, taskCounts } from "../store/tasks";
import { seedSamplesIfEmpty } from "../store/seed";
import { BENCHMARKS } from "../benchmarks";
import { projectRoot } from "../paths";

// One suite, two databases: what passes on embedded PGlite must pass on a real PostgreSQL server.

const brokenFile = path.join(projectRoot, "lib", "store", "fixtures", "broken-backend.jsonl");
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "colbench-db-"));

interface Backend {
  /** Opens the same database again (a "restart"). */
  open(): Promise<Database>;
}

let pgServer: PostgresServer | undefined;
const pgliteDir = path.join(tmp(), "db");
const socketDir = path.join(tmp(), "db");
let socketOwner: Database | undefined;

const backends: Array<{ label: string; kind: string; role: string; make: () => Promise<Backend> }> = [
  {
    label: "pglite",
    kind: "pglite",
    role: "owner",
    make: async () => ({ open: () => openDatabase({ pgliteDir, url: "" }) }),
  },
  // Another opener of a folder with a live owner is that owner's socket client: the same suite
  // through the PostgreSQL driver, PGlite's socket server and its session gate.
  {
    label: "pglite through its owner's socket",
    kind: "pglite",
    role: "client",
    make: async () => {
      socketOwner = await openDatabase({ pgliteDir: socketDir, url: "", command: "db.test owner" });
      return { open: () => openDatabase({ pgliteDir: socketDir, url: "", takeOver: false }) };
    },
  },
  {
    label: "postgresql",
    kind: "postgresql",
    role: "server",
    make: async () => {
      pgServer ??= await startPostgres();
      const url = await pgServer.createDatabase(`suite_${process.pid}`);
      return { open: () => openDatabase({ url }) };
    },
  },
];

afterAll(async () => {
  await socketOwner?.close();
  await pgServer?.stop();
  fs.rmSync(path.dirname(pgliteDir), { recursive: true, force: true });
  fs.rmSync(path.dirname(socketDir), { recursive: true, force: true });
});

describe.each(backends)("database on $label", ({ make, kind, role }) => {
  let backend: Backend;
  let db: Database;

  beforeAll(async () => {
    backend = await make();
    db = await backend.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it("applies the migrations to an empty database and records them", async () => {
    expect(db.kind).toBe(kind);
    expect(db.role).toBe(role);
    // Through the socket the owner has migrated already.
    if (role === "client") expect(db.applied).toEqual([]);
    else expect(db.applied.length).toBeGreaterThan(0);
    const rows = await db.prisma.$queryRawUnsafe<Array<{ migration_name: string; finished_at: Date | null }>>(
      `SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name`,
    );
    if (role !== "client") expect(rows.map((r) => r.migration_name)).toEqual(db.applied);
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
  });

  it("seeds the sample tasks into an empty database, once", async () => {
    const first = await seedSamplesIfEmpty(db.prisma);
    // One file per registered benchmark (samples/NAME.jsonl), every line of each stored.
    expect(first.map((s) => s.inserted)).toEqual(first.map((s) => s.lines));
    expect(first.map((s) => path.basename(s.file))).toEqual(BENCHMARKS.map((name) => `${name}.jsonl`));
    const counts = await taskCounts(db.prisma);
    expect(counts.byBenchmark.backend).toBeGreaterThanOrEqual(12);
    expect(counts.byBenchmark.frontend).toBeGreaterThanOrEqual(6);
    expect(counts.total).toBe(first.reduce((n, s) => n + s.inserted, 0));
    expect(await seedSamplesIfEmpty(db.prisma)).toEqual([]);
    const sample = await getTask(db.prisma, (await listTasks(db.prisma, { benchmark: "backend" })).items[0]!.id);
    expect(sample?.testCases).toHaveLength(10);
  });

  it("imports the good lines of a broken file and names each bad line, file, line and field", async () => {
    const problems: string[] = [];
    const summary = await importTasks(db.prisma, {
      file: brokenFile,
      benchmark: "backend",
      name: "broken",
      onProblem: (p) => problems.push(p),
    });
    expect(summary.lines).toBe(7);
    expect(summary.valid).toBe(2);
    expect(summary.inserted).toBe(2);
    expect(problems).toEqual([
      `${brokenFile}:2: test_cases: must hold at least one test`,
      expect.stringMatching(new RegExp(`^${brokenFile}:3: \\(json\\): `)),
      `${brokenFile}:4: problem_description: Invalid input: expected string, received undefined`,
      `${brokenFile}:6: (line): expected a JSON object`,
      `${brokenFile}:7: test_cases.test2: Invalid input: expected string, received number`,
    ]);
    // Test order survives storage (JSONB would sort object keys: test1, test2, test10).
    const negate = (await listTasks(db.prisma, { q: "Negate" })).items[0]!;
    const stored = await getTask(db.prisma, negate.id);
    expect(stored?.testCases?.map((t) => t.name)).toEqual(["test1", "test10", "test2"]);
    expect(stored?.sourceIndex).toBe(8);
    expect(stored?.source).toBe("broken");
  });

  it("does not duplicate tasks on re-import", async () => {
    const again = await importTasks(db.prisma, { file: brokenFile, benchmark: "backend", name: "broken again" });
    expect(again.inserted).toBe(0);
    expect(again.existing).toBe(2);
    expect((await listTasks(db.prisma, { q: "Negate" })).total).toBe(1);
  });

  it("filters by benchmark, split and words, and pages", async () => {
    const all = await taskCounts(db.prisma);
    const backend = await listTasks(db.prisma, { benchmark: "backend", pageSize: 5 });
    expect(backend.total).toBe(all.byBenchmark.backend);
    expect(backend.items).toHaveLength(5);
    expect(backend.pages).toBe(Math.ceil(all.byBenchmark.backend / 5));
    const last = await listTasks(db.prisma, { benchmark: "backend", pageSize: 5, page: backend.pages });
    expect(last.items.length).toBe(all.byBenchmark.backend - 5 * (backend.pages - 1));
    const ids = new Set([...backend.items, ...last.items].map((t) => t.id));
    expect(ids.size).toBe(backend.items.length + last.items.length);
    const samples = await listTasks(db.prisma, { split: "sample", benchmark: "frontend" });
    expect(samples.total).toBe(all.byBenchmark.frontend);
    const words = await listTasks(db.prisma, { q: "NEGATE neg(" });
    expect(words.items.map((t) => t.problemDescription)).toEqual([expect.stringContaining("Negate")]);
    expect((await listTasks(db.prisma, { q: "Negate zebra" })).total).toBe(0);
    // Summaries never carry hidden information.
    expect(Object.keys(backend.items[0]!)).not.toContain("groundTruth");
  });

  it("stores runs, episodes and turns, and refuses a second episode for the same sample", async () => {
    const task = (await listTasks(db.prisma, { benchmark: "backend" })).items[0]!;
    const run = await db.prisma.run.create({
      data: { name: `crud-${kind}-${role}`, benchmark: "backend", config: { agent: "x" } },
    });
    const episode = await db.prisma.episode.create({
      data: { runId: run.id, taskId: task.id, sample: 0, status: "running" },
    });
    await db.prisma.turn.createMany({
      data: [
        {
          episodeId: episode.id,
          index: 0,
          role: "agent",
          content: "What should happen at 1 kg?",
          prompt: [{ role: "user", content: "..." }],
        },
        { episodeId: episode.id, index: 1, role: "simulator", content: "It is the flat price." },
      ],
    });
    await db.prisma.episode.update({
      where: { id: episode.id },
      data: { status: "done", reward: 0.7, answer: "def f(): pass" },
    });
    const loaded = await db.prisma.episode.findUnique({
      where: { id: episode.id },
      include: { turns: { orderBy: { index: "asc" } } },
    });
    expect(loaded?.turns.map((t) => t.role)).toEqual(["agent", "simulator"]);
    expect(loaded?.reward).toBeCloseTo(0.7);
    await expect(db.prisma.episode.create({ data: { runId: run.id, taskId: task.id, sample: 0 } })).rejects.toThrow(
      /Unique constraint/i,
    );
    await expect(
      db.prisma.turn.create({ data: { episodeId: episode.id, index: 1, role: "agent", content: "dup" } }),
    ).rejects.toThrow(/Unique constraint/i);
    await db.prisma.run.delete({ where: { id: run.id } });
    expect(await db.prisma.turn.count({ where: { episodeId: episode.id } })).toBe(0);
  });

  it("keeps every row across a restart and applies no migration twice", async () => {
    const before = await taskCounts(db.prisma);
    await db.close();
    db = await backend.open();
    expect(db.applied).toEqual([]);
    expect(await taskCounts(db.prisma)).toEqual(before);
  });
});

describe("migrations", () => {
  // A property of the files, checked once: the engine replays the migrations into PGlite's
  // in-memory shadow database and compares the result with schema.prisma.
  it("cover every change in schema.prisma", async () => {
    const dir = path.join(tmp(), "db");
    const db = await openDatabase({ pgliteDir: dir, url: "", migrate: false });
    try {
      expect(await pendingSchemaSql(db.factory)).toBe("");
    } finally {
      await db.close();
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });

  // Issue 47: benchmarks became names the registry checks, not a PostgreSQL enum.
  it("turn the Benchmark enum columns into text, keeping every row, Task's unique key and its listing index", async () => {
    const dir = path.join(tmp(), "db");
    const db = await openDatabase({ pgliteDir: dir, url: "", migrate: false });
    try {
      const names = migrationNames();
      const at = names.indexOf("20261128103835_benchmark_names");
      expect(at).toBeGreaterThan(0);
      await applyMigrations(db.factory, undefined, names.slice(0, at));
      const sql = (text: string) => db.prisma.$executeRawUnsafe(text);
      for (const [i, benchmark] of ["backend", "frontend", "backend"].entries()) {
        await sql(
          `INSERT INTO "Task" ("benchmark", "problemDescription", "groundTruth", "source", "sourceIndex", "contentHash") VALUES ('${benchmark}', 'p${i}', 'g', 'old', ${i + 1}, 'h${i}')`,
        );
        await sql(
          `INSERT INTO "Run" ("name", "benchmark", "config", "updatedAt") VALUES ('r${i}', '${benchmark}', '{}', now())`,
        );
        await sql(
          `INSERT INTO "Queue" ("name", "kind", "benchmark", "overlap", "source") VALUES ('q${i}', 'trajectory', '${benchmark}', 1, '{}')`,
        );
      }
      expect(await applyMigrations(db.factory)).toEqual(names.slice(at));
      for (const table of ["Task", "Run", "Queue"]) {
        const rows = await db.prisma.$queryRawUnsafe<Array<{ benchmark: string }>>(
          `SELECT "benchmark" FROM "${table}" ORDER BY "id"`,
        );
        expect(rows.map((r) => r.benchmark)).toEqual(["backend", "frontend", "backend"]);
      }
      const columns = await db.prisma.$queryRawUnsafe<Array<{ table_name: string; data_type: string }>>(
        `SELECT table_name, data_type FROM information_schema.columns WHERE column_name = 'benchmark' ORDER BY table_name`,
      );
      expect(columns).toEqual(["Queue", "Run", "Task"].map((table_name) => ({ table_name, data_type: "text" })));
      expect(await db.prisma.$queryRawUnsafe(`SELECT typname FROM pg_type WHERE typname = 'Benchmark'`)).toEqual([]);
      const indexes = await db.prisma.$queryRawUnsafe<Array<{ indexname: string }>>(
        `SELECT indexname FROM pg_indexes WHERE tablename = 'Task' ORDER BY indexname`,
      );
      expect(indexes.map((r) => r.indexname)).toEqual(
        expect.arrayContaining(["Task_benchmark_contentHash_key", "Task_benchmark_split_id_idx"]),
      );
      await expect(
        sql(
          `INSERT INTO "Task" ("benchmark", "problemDescription", "groundTruth", "source", "sourceIndex", "contentHash") VALUES ('frontend', 'again', 'g', 'old', 9, 'h1')`,
        ),
      ).rejects.toThrow(/unique/i);
    } finally {
      await db.close();
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });
});

describe("embedded PGlite ownership", () => {
  const dir = path.join(tmp(), "db");
  afterAll(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

  function holdInChild(): Promise<{ child: ReturnType<typeof spawn>; committed: number }> {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(projectRoot, "lib/db/testing/hold-db.ts"), dir, "7"],
      {
        cwd: projectRoot,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    return new Promise((resolve, reject) => {
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk) => {
        out += chunk;
        const match = /committed (\d+)/.exec(out);
        if (match) resolve({ child, committed: Number(match[1]) });
      });
      child.stderr.on("data", (chunk) => (err += chunk));
      child.once("exit", (code) => reject(new Error(`holder exited ${code}: ${err}`)));
    });
  }

  /** Files under the data folder a process has open now (Linux: /proc/PID/fd). */
  function openFilesUnder(pid: number | "self", folder: string): string[] {
    const fdDir = `/proc/${pid}/fd`;
    const found: string[] = [];
    for (const fd of fs.readdirSync(fdDir)) {
      try {
        const target = fs.readlinkSync(path.join(fdDir, fd));
        if (target.startsWith(folder + path.sep) || target === folder) found.push(target);
      } catch {
        // closed meanwhile
      }
    }
    return found;
  }

  async function kill9(child: ReturnType<typeof spawn>): Promise<void> {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  const row = (i: number, tag: string) => ({
    benchmark: "backend" as const,
    problemDescription: `written by a client ${i}`,
    groundTruth: "def f():\n    return 2",
    testCases: [{ name: "t", expression: "f()" }],
    source: tag,
    sourceIndex: i + 1,
    contentHash: `${tag}-${i}`,
  });

  it("a second process becomes the owner's client; after kill -9 of the owner the next opener owns the folder and has every acknowledged row", async () => {
    const { child, committed } = await holdInChild();
    const client = await openDatabase({ pgliteDir: dir, url: "", takeOver: false });
    try {
      expect(client.role).toBe("client");
      expect(client.owner()).toMatchObject({ pid: child.pid, state: "serving", command: "hold-db fixture" });
      expect(client.url).toMatch(/^postgresql:\/\/colbench:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
      for (let i = 0; i < 5; i++) await client.prisma.task.create({ data: row(i, "client") });
      // Only the owner has the folder's files open; this process reaches them through the socket.
      expect(openFilesUnder(child.pid!, dir).length).toBeGreaterThan(0);
      expect(openFilesUnder("self", dir)).toEqual([]);
    } finally {
      await client.close();
    }
    await kill9(child);
    // The dead owner's lock is taken over at the same address; PGlite replays its WAL.
    const before = readLock(`${dir}.lock`);
    const db = await openDatabase({ pgliteDir: dir, url: "" });
    try {
      expect(db.role).toBe("owner");
      expect(db.url).toBe(before?.url);
      expect(await db.prisma.task.count({ where: { source: "hold-db" } })).toBe(committed);
      expect(await db.prisma.task.count({ where: { source: "client" } })).toBe(5);
    } finally {
      await db.close();
    }
    expect(readLock(`${dir}.lock`)).toMatchObject({ state: "closed" });
  });

  it("kill -9 of the owner while clients write and one is inside a transaction: every acknowledged commit is there, the open transaction is not", async () => {
    const { child, committed } = await holdInChild();
    const client = await openDatabase({ pgliteDir: dir, url: "", takeOver: false });
    const raw = new pg.Client(client.url);
    raw.on("error", () => {});
    await raw.connect();
    const acknowledged: string[] = [];
    let writing = true;
    try {
      // Four writers commit rows as fast as the owner takes them; each resolved create is acknowledged.
      const writers = Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; writing; i++) {
          const data = row(i, `kill-w${w}`);
          const ok = await client.prisma.task.create({ data }).then(
            () => true,
            () => false,
          );
          if (!ok) return;
          acknowledged.push(data.contentHash);
        }
      });
      await expect.poll(() => acknowledged.length, { timeout: 20_000 }).toBeGreaterThan(20);
      // A client opens a transaction between the writers' statements (they queue behind it at the
      // session gate), writes, and the owner dies before it commits.
      await raw.query("BEGIN");
      await raw.query(
        `INSERT INTO "Task" ("benchmark", "problemDescription", "groundTruth", "testCases", "source", "sourceIndex", "contentHash") VALUES ('backend', 'open', 'x', '[]', 'kill-open', 1, 'kill-open-1')`,
      );
      await kill9(child);
      writing = false;
      await Promise.all(writers);
      await expect(raw.query("COMMIT")).rejects.toThrow();
    } finally {
      writing = false;
      await raw.end().catch(() => {});
      await client.close();
    }
    const db = await openDatabase({ pgliteDir: dir, url: "" });
    try {
      const stored = new Set(
        (
          await db.prisma.task.findMany({ where: { source: { startsWith: "kill-" } }, select: { contentHash: true } })
        ).map((t) => t.contentHash),
      );
      expect(acknowledged.filter((hash) => !stored.has(hash))).toEqual([]);
      expect(stored.has("kill-open-1")).toBe(false);
      expect(
        await db.prisma.task.count({ where: { source: "hold-db", contentHash: { startsWith: `hold-${child.pid}-` } } }),
      ).toBe(committed);
    } finally {
      await db.close();
    }
  });

  it("a client still open when its owner dies takes the folder over and goes on at the same address", async () => {
    const { child } = await holdInChild();
    const client = await openDatabase({ pgliteDir: dir, url: "" });
    try {
      expect(client.role).toBe("client");
      await client.prisma.task.create({ data: row(0, "survivor") });
      const acknowledged = await client.prisma.task.count();
      await kill9(child);
      await expect.poll(() => client.role, { timeout: 20_000 }).toBe("owner");
      expect(client.owner()).toMatchObject({ pid: process.pid, state: "serving" });
      // The pool's broken connections are replaced by ones to this process's own socket.
      await expect.poll(() => client.prisma.task.count().catch(() => -1), { timeout: 10_000 }).toBe(acknowledged);
      expect(openFilesUnder("self", dir).length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});
