import { expect, test } from "./test";

const shots = "e2e/artifacts";

test("a person opens a run, replays an episode turn by turn and moves between episodes with the keyboard", async ({
  page,
}) => {
  await page.goto("/runs");
  const table = page.getByTestId("runs-table");
  await expect(table.getByRole("link", { name: "e2e-backend" })).toBeVisible();
  await expect(table.getByRole("row", { name: /e2e-backend/ })).toContainText("3/3");
  await page.screenshot({ path: `${shots}/runs.png`, fullPage: true });

  await table.getByRole("link", { name: "e2e-backend" }).click();
  await expect(page.getByRole("heading", { name: "e2e-backend" })).toBeVisible();
  await expect(page.getByTestId("episodes-table").getByRole("row")).toHaveCount(4);
  await page.screenshot({ path: `${shots}/run.png`, fullPage: true });

  await page.getByTestId("episodes-table").getByRole("link").first().click();
  await expect(page.getByRole("heading", { name: /Episode #\d+/ })).toBeVisible();
  const transcript = page.getByTestId("transcript");
  await expect(transcript.getByRole("listitem")).toHaveCount(6);
  await expect(transcript).toContainText("I WANT TO ANSWER:");
  await expect(page.getByTestId("episode-reward")).toHaveText("1.000");
  await expect(page.getByTestId("test-results").getByRole("row")).toHaveCount(10);
  // Critic advantages (imported in the e2e set-up) on the timeline and beside each agent turn.
  await expect(page.getByTestId("advantage-chart").locator(".recharts-bar-rectangle")).toHaveCount(3);
  await expect(transcript.locator('[data-role="agent"]').first()).toContainText("advantage 0.120");
  await page.screenshot({ path: `${shots}/episode-backend.png`, fullPage: true });

  const first = page.url();
  await page.keyboard.press("ArrowRight");
  await expect(page).not.toHaveURL(first);
  await expect(page.getByRole("heading", { name: /Episode #\d+/ })).toBeVisible();
  await page.keyboard.press("ArrowLeft");
  await expect(page).toHaveURL(first);
});

test("a frontend episode shows each proposal's render and both final renders", async ({ page }) => {
  await page.goto("/runs");
  await page.getByTestId("runs-table").getByRole("link", { name: "e2e-frontend" }).click();
  await page.getByTestId("episodes-table").getByRole("link").first().click();
  const renders = page.getByTestId("transcript").getByRole("img");
  await expect(renders).toHaveCount(3);
  for (const img of await renders.all()) {
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  }
  await expect(page.getByRole("img", { name: "Target page" })).toBeVisible();
  await expect(page.getByTestId("episode-reward")).toHaveText("1.000");
  await page.screenshot({ path: `${shots}/episode-frontend.png`, fullPage: true });
});

test("the leaderboard ranks finished runs with 95% intervals and takes a frontend baseline", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Leaderboard", exact: true }).click();
  const backend = page.getByTestId("leaderboard-backend");
  await expect(backend.getByRole("row", { name: /e2e-backend/ })).toContainText("100.0% [100.0%, 100.0%]");
  const frontend = page.getByTestId("leaderboard-frontend");
  await expect(frontend.getByRole("row", { name: /e2e-frontend/ })).toContainText("1.000");
  await page.getByLabel("Baseline run").selectOption({ label: "e2e-frontend" });
  await page.getByRole("button", { name: "Set baseline" }).click();
  await expect(page).toHaveURL(/baseline=\d+/);
  await expect(frontend.getByRole("row", { name: /e2e-frontend/ })).toContainText("baseline");
  await page.screenshot({ path: `${shots}/leaderboard.png`, fullPage: true });
});

test("two runs compared task by task, with the win rate and a filter by outcome", async ({ page }) => {
  await page.goto("/leaderboard");
  await page.getByRole("link", { name: "Compare two runs task by task" }).click();
  await page.getByLabel("Run A").selectOption({ label: "e2e-backend (backend)" });
  await page.getByLabel("Run B").selectOption({ label: "weak-backend (backend)" });
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page.getByTestId("compare-summary")).toContainText(
    "e2e-backend wins 3, ties 0, loses 0 of 3 shared tasks: win rate 100.0%",
  );
  const rows = page.getByRole("table", { name: "Tasks compared" }).getByRole("row");
  await expect(rows).toHaveCount(4);
  await page.getByRole("button", { name: "weak-backend better" }).click();
  await expect(rows).toHaveCount(1);
  await page.screenshot({ path: `${shots}/compare.png`, fullPage: true });
});
