import { expect, test, type Page } from "./test";

// The studio as a daily workplace: played sessions kept apart from benchmark runs, runs archived
// and deleted, pages that say what is missing.

const shots = "e2e/artifacts";
const models = () => process.env.COLBENCH_E2E_MODELS!;

async function runOptions(page: Page): Promise<string[]> {
  return page.getByLabel("Run A").locator("option").allTextContents();
}

test("a played session stays off the runs list, the Leaderboard and Compare until asked for; Sessions lists it", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  // Play the agent's seat to its end against the scripted simulator.
  const tasks = (await (await request.get("/api/tasks?benchmark=backend")).json()) as { items: Array<{ id: number }> };
  await page.goto("/play");
  await page.getByLabel("Benchmark").selectOption("backend");
  await page.getByLabel("Task id").fill(String(tasks.items[5]!.id));
  await page.getByRole("radio", { name: /^the agent/ }).check();
  await page.getByLabel("The other side").fill(`${models()}#simulator`);
  await page.getByRole("button", { name: "Start playing" }).click();
  await expect(page.getByTestId("seat-status")).toHaveAttribute("data-state", "your-move", { timeout: 30_000 });
  await page.getByRole("button", { name: "Submit final answer…" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Submit final answer", exact: true }).click();
  await expect(page.getByTestId("seat-status")).toHaveAttribute("data-state", "ended", { timeout: 30_000 });

  await page.goto("/sessions");
  const session = page.getByTestId("sessions-table").getByRole("row").nth(1);
  await expect(session).toContainText("agent");
  await expect(session).toContainText("of the hidden tests passed");
  const name = (await session.getByRole("link", { name: "details" }).getAttribute("href"))!;
  const runPage = await page.goto(name);
  expect(runPage!.ok()).toBe(true);
  const runName = (await page.getByRole("heading", { level: 1 }).innerText()).trim();
  expect(runName).toMatch(/^play-backend-/);
  // No success in this session: the success rate's axis still ends at 100%.
  // (The value axis's ticks are the ones in %; recharts 3 draws tick labels in a layer of their own.)
  const rateTicks = page
    .getByTestId("chart-by-turns")
    .locator(".recharts-cartesian-axis-tick-value")
    .filter({ hasText: "%" });
  await expect(rateTicks.last()).toHaveText("100%");
  expect(await rateTicks.allTextContents()).toEqual(["0%", "25%", "50%", "75%", "100%"]);
  await page.screenshot({ path: `${shots}/sessions.png`, fullPage: true });

  await page.goto("/runs");
  await expect(page.getByTestId("runs-table")).not.toContainText(runName);
  await page.getByTestId("switch-include-played-sessions").click();
  await expect(page.getByTestId("runs-table")).toContainText(runName);

  await page.goto("/leaderboard");
  await expect(page.getByTestId("leaderboard-backend")).not.toContainText(runName);
  await page.getByTestId("switch-include-played-sessions").click();
  await expect(page.getByTestId("leaderboard-backend")).toContainText(runName);

  await page.goto("/compare");
  expect((await runOptions(page)).some((o) => o.includes(runName))).toBe(false);
  await page.getByTestId("switch-include-played-sessions").click();
  await expect.poll(async () => (await runOptions(page)).some((o) => o.includes(runName))).toBe(true);
});

test("a run archived and deleted leaves every page with its episodes; other runs stay", async ({ page, request }) => {
  test.setTimeout(90_000);
  const created = await request.post("/api/runs", {
    data: {
      benchmark: "backend",
      tasks: "ids=1-2",
      agent: `${models()}#ask-then-answer`,
      simulator: `${models()}#simulator`,
      name: "to-delete",
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId("run-live")).toContainText("Finished:", { timeout: 60_000 });
  const episodeLink = page.getByTestId("episodes-table").getByRole("link").first();
  const episodeUrl = (await episodeLink.getAttribute("href"))!;
  const before = (await (await request.get("/api/runs/1/episodes")).json()) as unknown;

  await page.getByRole("button", { name: "Archive" }).click();
  await expect(page.getByTestId("archived-banner")).toBeVisible();
  for (const path of ["/runs", "/leaderboard"]) {
    await page.goto(path);
    await expect(page.locator("main")).not.toContainText("to-delete");
  }
  await page.goto("/runs?archived=1");
  await expect(page.getByTestId("runs-table")).toContainText("to-delete");

  await page.goto(`/runs/${id}`);
  await page.getByRole("button", { name: "Restore" }).click();
  await expect(page.getByTestId("archived-banner")).toBeHidden();
  await page.goto("/runs");
  await expect(page.getByTestId("runs-table")).toContainText("to-delete");

  await page.goto(`/runs/${id}`);
  await page.getByRole("button", { name: "Delete…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete to-delete?" });
  await expect(dialog).toContainText("Its 2 episodes");
  await page.screenshot({ path: `${shots}/delete-run.png` });
  await dialog.getByRole("button", { name: "Delete run" }).click();
  await expect(page).toHaveURL(/\/runs$/);
  await expect(page.getByTestId("runs-table")).not.toContainText("to-delete");
  for (const path of [`/runs/${id}`, episodeUrl]) expect((await request.get(path)).status()).toBe(404);
  await page.goto("/runs?played=1&archived=1");
  await expect(page.getByTestId("runs-table")).not.toContainText("to-delete");
  // Another run is untouched.
  expect((await (await request.get("/api/runs/1/episodes")).json()) as unknown).toEqual(before);
});

test("unknown runs, episodes and tasks get the studio's own 404 page naming what is missing", async ({
  request,
  page,
}) => {
  for (const [path, text, list] of [
    ["/runs/99999", "There is no run 99999.", "All runs"],
    ["/episodes/99999", "There is no episode 99999.", "Runs and their episodes"],
    ["/tasks/99999", "There is no task 99999.", "All tasks"],
    ["/play/99999/agent", "There is no episode 99999 to play.", "Play"],
    ["/nowhere", "Nothing in the studio lives at /nowhere.", "The studio's start page"],
  ] as const) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    const html = await response.text();
    expect(html).toContain(text);
    expect(html).toContain(list);
    expect(html).toContain('aria-label="Main"');
  }
  await page.goto("/runs/99999");
  await expect(page.getByTestId("not-found")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Runs" })).toBeVisible();
  await page.screenshot({ path: `${shots}/not-found.png` });
  // Out-of-range pages show the last page rather than an empty table.
  await page.goto("/tasks?page=9999");
  await expect(page.getByTestId("task-list").locator("li").first()).toBeVisible();
  // An empty filter says so, and offers the way back.
  await page.goto("/tasks?q=zzzzqqqq-no-such-words");
  await expect(page.getByRole("heading", { name: "No tasks match these filters" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Clear the filters" })).toBeVisible();
});

test("a replay opens at its first turn, or at the turn the URL names, and shows its keys", async ({ page }) => {
  await page.goto("/episodes/1");
  await expect(page.getByTestId("replay-keys")).toContainText("step through the agent's turns");
  await expect(page.getByTestId("turn-code-title")).toContainText("(1 of");
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await page.goto("/episodes/1#turn-5");
  await expect(page.getByTestId("turn-code-title")).toContainText("Code at turn 5");
});
