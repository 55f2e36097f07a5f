import { expect, test } from "./test";

const shots = "e2e/artifacts";

test("a person starts a run from the studio, watches it, stops and resumes it, and sees the leaderboard update", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const models = process.env.COLBENCH_E2E_MODELS!;
  await page.goto("/runs");
  await page.getByRole("link", { name: "New run" }).click();
  await page.getByLabel("Tasks", { exact: true }).fill("ids=4-9");
  await page.getByLabel("Agent server").fill(`${models}#slow:2000`);
  await page.getByLabel("Simulator server").fill(`${models}#simulator`);
  await page.getByLabel("Concurrency").fill("2");
  await page.getByLabel("Name (optional)").fill("ui-run");
  await page.screenshot({ path: `${shots}/new-run.png`, fullPage: true });
  await page.getByRole("button", { name: "Start run" }).click();

  await expect(page.getByRole("heading", { name: "ui-run" })).toBeVisible();
  const live = page.getByTestId("run-live");
  await expect(live).toContainText("Running");
  await page.screenshot({ path: `${shots}/run-live.png`, fullPage: true });

  await live.getByRole("button", { name: "Stop" }).click();
  await expect(live).toContainText("Stopped:", { timeout: 30_000 });
  await expect(live.getByRole("button", { name: "Resume" })).toBeVisible();

  await live.getByRole("button", { name: "Resume" }).click();
  await expect(live).toContainText("Running");
  const runUrl = page.url();

  // Watch one episode turn by turn while it plays.
  const playing = page
    .getByTestId("episodes-table")
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: "running", exact: true }) });
  await playing.first().getByRole("link").click();
  const episode = page.getByTestId("live-episode");
  await expect(episode).toHaveAttribute("data-status", "running");
  const turns = episode.getByTestId("turn");
  const before = await turns.count();
  // Monaco's first load can take a while on a busy 2-core machine.
  await expect(episode.locator(".monaco-editor")).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: `${shots}/episode-live.png`, fullPage: true });
  await expect.poll(() => turns.count(), { timeout: 20_000 }).toBeGreaterThan(before);
  // When it ends the page turns into its replay by itself.
  await expect(page.getByTestId("turn-code-title")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("episode-reward")).toHaveText("1.000");

  // The leaderboard, opened while the run still plays, updates by itself when it ends.
  await page.getByRole("link", { name: "Leaderboard", exact: true }).click();
  const row = page.getByTestId("leaderboard-backend").getByRole("row", { name: /ui-run/ });
  await expect(row.getByRole("cell").nth(2)).toHaveText("6", { timeout: 90_000 });
  await expect(row).toContainText("100.0%");

  await page.goto(runUrl);
  await expect(page.getByTestId("run-live")).toContainText("Finished:");
  await expect(page.getByTestId("episodes-table").getByRole("row")).toHaveCount(7);
  await expect(page.getByTestId("episodes-table").getByRole("cell", { name: "done", exact: true })).toHaveCount(6);
  await page.getByRole("link", { name: "1.0", exact: true }).click();
  await expect(page.getByTestId("episodes-table").getByRole("row")).toHaveCount(7);
  await page.getByRole("link", { name: "0", exact: true }).click();
  await expect(page.getByRole("heading", { name: "No episode matches these filters" })).toBeVisible();
  await page.getByRole("link", { name: "Clear the filters" }).click();
  await expect(page.getByTestId("episodes-table").getByRole("row")).toHaveCount(7);
});

test("a run with a bad server address is refused with the reason", async ({ page }) => {
  await page.goto("/runs/new");
  await page.getByLabel("Agent server").fill("not-a-url");
  await page.getByLabel("Simulator server").fill("http://127.0.0.1:1/v1#m");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "URL#MODEL" })).toContainText("agent: expected URL#MODEL");
});
