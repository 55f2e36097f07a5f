import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { expect, test } from "./test";
import { e2ePort } from "./ports";
import { startStudioOnPostgres, type PostgresStudio } from "./studio";

// (Its own studio on its own port: the other specs share the one global-setup starts on PGlite.)
// One PostgreSQL server, two processes: a studio, and `colbench run` in a terminal. The turns the
// terminal's run stores reach the studio's open episode page as they happen (LISTEN/NOTIFY).

const shots = "e2e/artifacts";
const root = path.resolve(import.meta.dirname, "..");
const PORT = e2ePort(1);

let studio: PostgresStudio;
let terminal: ChildProcess | null = null;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // The studio migrates the empty database and seeds the sample tasks.
  studio = await startStudioOnPostgres(PORT, "shared_e2e");
});

test.afterAll(async () => {
  terminal?.kill("SIGKILL");
  const code = await studio?.stop();
  expect(code, studio?.output()).toBe(0);
});

test("a turn stored by `colbench run` in another process shows up live on the studio's episode page", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const models = process.env.COLBENCH_E2E_MODELS!;
  terminal = spawn(
    process.execPath,
    [
      path.join(root, "cli", "bin.mjs"),
      "run",
      "--benchmark",
      "backend",
      "--tasks",
      "ids=1-2",
      "--concurrency",
      "1",
      "--name",
      "from-a-terminal",
      "--agent",
      `${models}#slow:1500`,
      "--simulator",
      `${models}#simulator`,
    ],
    { cwd: root, env: { ...process.env, DATABASE_URL: studio.databaseUrl }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  terminal.stdout!.on("data", (chunk) => (log += chunk));
  terminal.stderr!.on("data", (chunk) => (log += chunk));
  const ended = new Promise<number | null>((resolve) => terminal!.once("exit", resolve));

  // The run and its first episode, as the studio's own API lists them.
  await expect
    .poll(() => /run "from-a-terminal" \(id (\d+)\)/.exec(log)?.[1], { timeout: 30_000, message: log })
    .toBeTruthy();
  const runId = /run "from-a-terminal" \(id (\d+)\)/.exec(log)![1];
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
  // The agent answers every 1.5 s in the other process: new turns arrive without a reload.
  await expect.poll(() => turns.count(), { timeout: 20_000 }).toBeGreaterThan(before);
  await page.screenshot({ path: `${shots}/shared-database-live.png`, fullPage: true });
  // When the terminal's episode ends, the open page turns into its replay by itself.
  await expect(page.getByTestId("turn-code-title")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("episode-reward")).toHaveText("1.000");

  expect(await ended, log).toBe(0);
  // The studio's run page shows the finished run from the same database.
  await page.goto(`${studio.url}/runs/${runId}`);
  await expect(page.getByTestId("episodes-table").getByRole("cell", { name: "done", exact: true })).toHaveCount(2);
});
