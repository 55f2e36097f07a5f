import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./test";
import { e2ePort } from "./ports";
import { startScriptedServer, type ScriptedServer } from "./fixtures/scripted-model-server";
import { startStudio, type RunningStudio } from "./studio";

// (Its own studio on its own port and data folder: the other specs share the one global-setup starts.)
// The embedded database beside the studio: the studio owns the PGlite folder and serves it on a
// local socket; `colbench import`, `run` and `export` in terminals are its clients. The run page
// shows the terminal's run as it plays; only the studio ever opens the folder; after kill -9 of the
// studio the next command takes the folder over and nothing acknowledged is lost.

const shots = "e2e/artifacts";
const root = path.resolve(import.meta.dirname, "..");
const PORT = e2ePort(3);

interface Command {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

let studio: RunningStudio;
let models: ScriptedServer;
let dataDir: string;
const spawned: ChildProcess[] = [];

function colbench(args: string[]): Command {
  const child = spawn(process.execPath, [path.join(root, "cli", "bin.mjs"), ...args], {
    cwd: root,
    env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  spawned.push(child);
  let log = "";
  child.stdout.on("data", (chunk) => (log += chunk));
  child.stderr.on("data", (chunk) => (log += chunk));
  return { child, output: () => log, exited: new Promise((resolve) => child.once("exit", resolve)) };
}

async function succeeds(args: string[]): Promise<string> {
  const command = colbench(args);
  expect(await command.exited, command.output()).toBe(0);
  return command.output();
}

/** Files under the database folder a process has open now (Linux: /proc/PID/fd). */
function openUnder(pid: number, folder: string): number {
  let n = 0;
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(folder + path.sep)) n++;
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    // the process has ended
  }
  return n;
}

/** Samples, every 100 ms, how many database files each watched process holds open. */
function watchOpenFiles(folder: string) {
  const most = new Map<number, number>();
  const timer = setInterval(() => {
    for (const child of spawned)
      if (child.pid && child.exitCode === null)
        most.set(child.pid, Math.max(most.get(child.pid) ?? 0, openUnder(child.pid, folder)));
    const studioPid = studio.process.pid!;
    most.set(studioPid, Math.max(most.get(studioPid) ?? 0, openUnder(studioPid, folder)));
  }, 100);
  return { stop: () => clearInterval(timer), most };
}

// Five tasks of the project's own, reworded so they import as new ones; the scripted server knows
// their reference code, so its agent can answer them.
const tasks = fs
  .readFileSync(path.join(root, "samples", "backend.jsonl"), "utf8")
  .trim()
  .split("\n")
  .slice(0, 5)
  .map((line) => {
    const task = JSON.parse(line) as { problem_description: string; ground_truth: string };
    return { ...task, problem_description: `(imported beside the studio) ${task.problem_description}` };
  });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  models = await startScriptedServer({
    tasks: tasks.map((t) => ({ problemDescription: t.problem_description, groundTruth: t.ground_truth })),
  });
  studio = await startStudio(PORT);
  dataDir = studio.dataDir;
});

test.afterAll(async () => {
  for (const child of spawned) if (child.exitCode === null) child.kill("SIGKILL");
  await studio?.stop("SIGKILL");
  await models?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test("import, run and export from terminals while the studio serves the embedded database; the run page follows the run live", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const folder = path.join(dataDir, "db");
  const watch = watchOpenFiles(folder);
  const file = path.join(dataDir, "five.jsonl");
  fs.writeFileSync(file, tasks.map((t) => JSON.stringify(t)).join("\n") + "\n");

  const imported = await succeeds(["import", file, "--benchmark", "backend", "--name", "beside-the-studio"]);
  expect(imported).toContain(`${file}: 5 lines, 5 new tasks, 0 already stored, 0 bad`);

  const run = colbench([
    "run",
    "--benchmark",
    "backend",
    "--tasks",
    "source=beside-the-studio",
    "--concurrency",
    "1",
    "--name",
    "from-a-terminal",
    "--agent",
    `${models.url}#slow:700`,
    "--simulator",
    `${models.url}#simulator`,
  ]);
  await expect
    .poll(() => /run "from-a-terminal" \(id (\d+)\): 5 tasks x 1/.exec(run.output())?.[1], {
      timeout: 30_000,
      message: run.output(),
    })
    .toBeTruthy();
  const runId = /run "from-a-terminal" \(id (\d+)\)/.exec(run.output())![1];

  // The studio's run page, opened while the terminal plays: progress arrives over the bus, no reload.
  await page.goto(`${studio.url}/runs/${runId}`);
  const live = page.getByTestId("run-live");
  await expect(live).toContainText("/5 ended", { timeout: 20_000 });
  const done = async () => Number(/(\d+)\/5 ended/.exec((await live.textContent()) ?? "")?.[1] ?? -1);
  const first = await done();
  expect(first).toBeGreaterThanOrEqual(0);
  expect(first).toBeLessThan(5);
  await page.screenshot({ path: `${shots}/embedded-shared-live.png`, fullPage: true });
  await expect.poll(done, { timeout: 60_000 }).toBeGreaterThan(first);
  expect(await run.exited, run.output()).toBe(0);
  expect(JSON.parse(run.output().trim().split("\n").pop()!)).toMatchObject({
    run: "from-a-terminal",
    episodes: 5,
    done: 5,
    success_rate: 1,
  });
  await expect(live).toContainText("Finished:", { timeout: 20_000 });
  await expect(page.getByTestId("episodes-table").getByRole("cell", { name: "done", exact: true })).toHaveCount(5);
  await page.screenshot({ path: `${shots}/embedded-shared-finished.png`, fullPage: true });

  const out = path.join(dataDir, "from-a-terminal.jsonl");
  await succeeds(["export", "from-a-terminal", "--out", out]);
  const lines = fs
    .readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { reward: number });
  expect(lines.map((l) => l.reward)).toEqual([1, 1, 1, 1, 1]);

  // The System page tells the admin who owns the database and what else this machine has.
  await page.goto(`${studio.url}/admin/system`);
  const parts = page.getByTestId("system-parts");
  await expect(parts.getByRole("row", { name: /Database/ })).toContainText(
    `owner: process ${studio.process.pid} (colbench serve)`,
    { timeout: 30_000 },
  );
  await expect(parts.getByRole("row", { name: /Chromium/ })).toContainText("ok");
  await expect(page.getByTestId("system-verdict")).toHaveText("Everything the studio needs is here.");
  await page.screenshot({ path: `${shots}/system-page.png`, fullPage: true });

  watch.stop();
  // The studio held the folder's files open the whole time; no terminal command ever opened one.
  expect(watch.most.get(studio.process.pid!)).toBeGreaterThan(0);
  const clients = spawned.map((c) => c.pid!);
  expect(clients).toHaveLength(3);
  for (const pid of clients) expect(watch.most.get(pid) ?? 0, `process ${pid}`).toBe(0);
});

test("after kill -9 of the studio the next command owns the folder and has every acknowledged row", async () => {
  test.setTimeout(120_000);
  const before = path.join(dataDir, "before.jsonl");
  await succeeds(["export", "from-a-terminal", "--out", before]);
  const tasksBefore = await succeeds(["tasks", "list", "--json"]);

  expect(await studio.stop("SIGKILL")).toBeNull();
  const lock = JSON.parse(fs.readFileSync(path.join(dataDir, "db.lock"), "utf8")) as { pid: number; state: string };
  expect(lock).toMatchObject({ pid: studio.process.pid, state: "serving" }); // left by the dead studio

  // The next command takes the folder over (PGlite replays its write-ahead log) and owns it.
  const after = path.join(dataDir, "after.jsonl");
  const exported = colbench(["export", "from-a-terminal", "--out", after]);
  expect(await exported.exited, exported.output()).toBe(0);
  expect(fs.readFileSync(after, "utf8")).toBe(fs.readFileSync(before, "utf8"));
  expect(await succeeds(["tasks", "list", "--json"])).toBe(tasksBefore);
  expect(JSON.parse(fs.readFileSync(path.join(dataDir, "db.lock"), "utf8"))).toMatchObject({ state: "closed" });

  // And the studio starts again on it as its owner.
  studio = await startStudio(PORT, dataDir);
  const health = (await (await fetch(`${studio.url}/api/health`)).json()) as { database: { role: string } };
  expect(health.database.role).toBe("owner");
  expect(await studio.stop("SIGTERM")).toBe(0);
});
