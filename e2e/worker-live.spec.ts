import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { expect, test } from "./test";
import { e2ePort } from "./ports";
import { startStudioOnPostgres, type PostgresStudio } from "./studio";

// (Its own studio on its own port, on its own PostgreSQL server.) A run started from the studio goes
// on the run queue; a `colbench worker` process plays it, and the turns it stores show up live on
// the studio's episode page; the run page lists the worker.

const shots = "e2e/artifacts";
const root = path.resolve(import.meta.dirname, "..");
const PORT = e2ePort(7);

let studio: PostgresStudio;
let worker: ChildProcess | null = null;
let log = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  studio = await startStudioOnPostgres(PORT, "worker_e2e");
});

test.afterAll(async () => {
  worker?.kill("SIGKILL");
  const code = await studio?.stop();
  expect(code, studio?.output()).toBe(0);
});

test("turns a worker process stores show up live on the studio's episode page", async ({ page }) => {
  test.setTimeout(120_000);
  const models = process.env.COLBENCH_E2E_MODELS!;
  worker = spawn(
    process.execPath,
    [path.join(root, "cli", "bin.mjs"), "worker", "--concurrency", "2", "--poll", "200"],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: studio.databaseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  worker.stdout!.on("data", (chunk) => (log += chunk));
  worker.stderr!.on("data", (chunk) => (log += chunk));
  await expect.poll(() => log, { timeout: 30_000 }).toContain("ready");
  const workerId = /worker (\S+) ready/.exec(log)![1]!;

  // The studio's New run, on a PostgreSQL server: queued, not played in the studio's process.
  const created = await page.request.post(`${studio.url}/api/runs`, {
    data: {
      benchmark: "backend",
      tasks: "ids=1-2",
      concurrency: 1,
      name: "from-a-worker",
      agent: `${models}#slow:1500`,
      simulator: `${models}#simulator`,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const runId = ((await created.json()) as { id: number }).id;

  const running = async () => {
    const response = await page.request.get(`${studio.url}/api/runs/${runId}/episodes?status=running`);
    return ((await response.json()) as { items: Array<{ id: number }> }).items[0]?.id;
  };
  await expect.poll(running, { timeout: 30_000 }).toBeTruthy();
  const episodeId = await running();

  await page.goto(`${studio.url}/episodes/${episodeId}`);
  const episode = page.getByTestId("live-episode");
  await expect(episode).toHaveAttribute("data-status", "running");
  const turns = episode.getByTestId("turn");
  const before = await turns.count();
  // The agent answers every 1.5 s in the worker's process: new turns arrive without a reload.
  await expect.poll(() => turns.count(), { timeout: 20_000 }).toBeGreaterThan(before);
  await page.screenshot({ path: `${shots}/worker-live.png`, fullPage: true });
  await expect(page.getByTestId("turn-code-title")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("episode-reward")).toHaveText("1.000");

  // The run page: the worker that played it, and both episodes done.
  await page.goto(`${studio.url}/runs/${runId}`);
  await expect(page.getByTestId("workers-table")).toContainText(workerId.split(":").slice(0, 2).join(":"));
  await expect(page.getByTestId("episodes-table").getByRole("cell", { name: "done", exact: true })).toHaveCount(2, {
    timeout: 30_000,
  });
  await page.screenshot({ path: `${shots}/worker-run-page.png`, fullPage: true });
});
