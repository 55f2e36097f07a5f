import { expect, test, type APIRequestContext, type Page } from "./test";

// A researcher's day on a run's page: rename it in place, write notes, tag it and find it by its tag
// in the runs list; what is refused is said where it was typed. The episodes table sorts in the
// database by any header, and its exports carry what is shown, in that order. Compare's token totals
// show both columns at 1280 and 390 px. Each test makes a run of its own (global-setup's stay as they are).

const shots = "e2e/artifacts";
const models = () => process.env.COLBENCH_E2E_MODELS!;

async function createRun(request: APIRequestContext, name: string): Promise<number> {
  const created = await request.post("/api/runs", {
    data: {
      benchmark: "backend",
      tasks: "ids=1-3",
      bestOf: 2,
      agent: `${models()}#coin`,
      simulator: `${models()}#simulator`,
      name,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const ended = async () =>
    (
      (await (await request.get(`/api/runs/${id}/episodes`)).json()) as { items: Array<{ status: string }> }
    ).items.filter((e) => e.status === "done" || e.status === "failed").length;
  await expect.poll(ended, { timeout: 90_000 }).toBe(6);
  return id;
}

/** The episodes table's rows as the page shows them: episode, turns, reward. */
async function shownRows(page: Page) {
  return page.getByTestId("episodes-table").evaluate((table) =>
    [...table.querySelectorAll("tbody tr")].map((tr) => {
      const cell = (column: string) => tr.querySelector(`td[data-column="${column}"]`)?.textContent?.trim() ?? "";
      return { id: cell("id"), turns: cell("turns"), reward: cell("reward") };
    }),
  );
}

test("a run is renamed in place, noted and tagged, and found by its tag", async ({ page, request }) => {
  const runId = await createRun(request, "notes-day");
  await page.goto(`/runs/${runId}`);
  await expect(page.getByRole("heading", { name: "notes-day" })).toBeVisible();

  // Rename: an empty name and another run's name are refused where they were typed.
  await page.getByRole("button", { name: "Rename the run" }).click();
  const name = page.getByRole("textbox", { name: "Run name" });
  await name.fill("   ");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("run-name-error")).toHaveText("name: must not be empty");
  await name.fill("e2e-backend");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("run-name-error")).toContainText('is named "e2e-backend"');
  await name.fill("notes day: coin (k2)");
  await name.press("Enter");
  await expect(page.getByRole("heading", { name: "notes day: coin (k2)" })).toBeVisible();

  // Tags: two at once (any case), a refused one, one removed.
  const tagBox = page.getByRole("textbox", { name: "Add a tag" });
  await tagBox.fill("Baseline coin-flip extra");
  await tagBox.press("Enter");
  await expect(page.getByTestId("run-tag")).toHaveText(["baseline×", "coin-flip×", "extra×"]);
  await tagBox.fill("no!good");
  await tagBox.press("Enter");
  await expect(page.getByTestId("run-tags-error")).toContainText('tag "no!good": only lowercase letters');
  await tagBox.fill("t".repeat(40));
  await tagBox.press("Enter");
  await expect(page.getByTestId("run-tags-error")).toContainText("at most 32 characters");
  await page.getByRole("button", { name: "Remove tag extra" }).click();
  await expect(page.getByTestId("run-tag")).toHaveText(["baseline×", "coin-flip×"]);

  // Notes keep their line breaks.
  await page.getByRole("button", { name: "Add notes" }).click();
  await page.getByRole("textbox", { name: "Notes" }).fill("coin agent: every other answer wrong\nsecond line");
  await page.getByRole("button", { name: "Save notes" }).click();
  await expect
    .poll(() => page.getByTestId("run-notes").evaluate((p) => p.textContent))
    .toBe("coin agent: every other answer wrong\nsecond line");

  // All of it is stored: a reload shows the same.
  await page.reload();
  await expect(page.getByRole("heading", { name: "notes day: coin (k2)" })).toBeVisible();
  await expect(page.getByTestId("run-tag")).toHaveText(["baseline×", "coin-flip×"]);
  await expect(page.getByTestId("run-notes")).toContainText("second line");
  await page.screenshot({ path: `${shots}/run-notes-tags-1280.png` });

  // A tag links to the runs list filtered by it: this run alone, the pill chosen.
  await page.getByTestId("run-tag").filter({ hasText: "coin-flip" }).getByRole("link").click();
  await expect(page).toHaveURL(/\/runs\?tag=coin-flip$/);
  const rows = page.getByTestId("runs-table").getByRole("row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("notes day: coin (k2)");
  await expect(
    page.getByRole("navigation", { name: "Filter by tag" }).getByRole("link", { name: "coin-flip (1)" }),
  ).toHaveAttribute("aria-current", "page");
  await page.screenshot({ path: `${shots}/runs-by-tag-1280.png` });
  await page.goto("/runs?tag=nothing-here");
  await expect(page.getByText('No run here is tagged "nothing-here"')).toBeVisible();
  await page.getByRole("link", { name: "any" }).click();
  await expect(page.getByTestId("runs-table").getByRole("row", { name: /e2e-backend/ })).toBeVisible();

  // The route refuses what the page would: the studio's words, no change.
  const refused = await page.request.patch(`/api/runs/${runId}`, { data: { name: "12345" } });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { error: string }).error).toContain("all digits");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/runs/${runId}`);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${shots}/run-notes-tags-390.png` });
});

test("the run page's episodes sort in the database by any header and export what is shown", async ({
  page,
  request,
}) => {
  const runId = await createRun(request, "sorted-day");
  await page.goto(`/runs/${runId}`);
  const header = (name: string) => page.getByTestId("episodes-table").getByRole("columnheader", { name });
  await expect(header("Reward")).toHaveAttribute("aria-sort", "none");
  await header("Reward").getByRole("button").click();
  await expect(page).toHaveURL(/sort=reward&dir=desc/);
  await expect(header("Reward")).toHaveAttribute("aria-sort", "descending");
  const api = async (query: string) =>
    (
      (await (await page.request.get(`/api/runs/${runId}/episodes?${query}`)).json()) as {
        items: Array<{ id: number }>;
      }
    ).items.map((e) => `#${e.id}`);
  const byReward = await api("sort=reward&dir=desc");
  await expect.poll(async () => (await shownRows(page)).map((r) => r.id)).toEqual(byReward);
  const rewards = (await shownRows(page)).map((r) => Number(r.reward));
  expect(rewards).toEqual([...rewards].sort((a, b) => b - a));
  expect(new Set(rewards).size, "the coin agent's rewards differ").toBeGreaterThan(1);

  // Again: ascending. Then by another column, with a filter kept.
  await header("Reward").getByRole("button").click();
  await expect(header("Reward")).toHaveAttribute("aria-sort", "ascending");
  await expect.poll(async () => (await shownRows(page)).map((r) => r.id)).toEqual(await api("sort=reward&dir=asc"));
  await page.getByRole("navigation", { name: "Filter by status" }).getByRole("link", { name: "done" }).click();
  await expect(page).toHaveURL(/status=done/);
  await expect(page).toHaveURL(/sort=reward&dir=asc/);
  await header("Turns").getByRole("button").click();
  await expect(page).toHaveURL(/status=done&sort=turns&dir=desc/);
  await expect
    .poll(async () => (await shownRows(page)).map((r) => r.id))
    .toEqual(await api("status=done&sort=turns&dir=desc"));

  // The export links carry the filters and order shown, and their rows come in the page's order.
  const csvHref = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
  expect(csvHref).toBe(`/api/runs/${runId}/episodes?format=csv&status=done&sort=turns&dir=desc`);
  const csv = await (await page.request.get(csvHref!)).text();
  // Each record starts with its episode's number (a task's text may hold line breaks inside quotes).
  const csvIds = [...csv.matchAll(/(?:^|\r\n)(#\d+),/g)].map((m) => m[1]);
  expect(csvIds).toEqual((await shownRows(page)).map((r) => r.id));
  const jsonHref = await page.getByRole("link", { name: "Export JSON" }).getAttribute("href");
  expect(jsonHref).toBe(`/api/runs/${runId}/episodes?format=json&status=done&sort=turns&dir=desc`);
  await page.screenshot({ path: `${shots}/run-episodes-sorted-1280.png`, fullPage: true });
});

test("Compare's token totals show the completion column at 1280 and 390 px", async ({ page }) => {
  const ids = async (name: string) => {
    await page.goto("/runs");
    const href = await page.getByRole("link", { name, exact: true }).getAttribute("href");
    return Number(/\/runs\/(\d+)/.exec(href!)![1]);
  };
  const url = `/compare?a=${await ids("e2e-backend")}&b=${await ids("weak-backend")}`;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
    await page.goto(url);
    const cards = page.getByTestId("token-totals");
    await expect(cards).toHaveCount(2);
    for (const card of await cards.all()) {
      await card.scrollIntoViewIfNeeded();
      const fits = await card.evaluate((figure) => {
        const box = figure.getBoundingClientRect();
        const completion = [...figure.querySelectorAll("th")].find((th) => th.textContent === "completion")!;
        const cell = figure.querySelector("tbody tr td:last-child")!;
        const scroller = figure.querySelector("table")!.parentElement!;
        return {
          header: completion.getBoundingClientRect().right <= box.right,
          cell: cell.getBoundingClientRect().right <= box.right,
          noScroll: scroller.scrollWidth <= scroller.clientWidth,
        };
      });
      expect(fits, `token totals at ${width} px`).toEqual({ header: true, cell: true, noScroll: true });
    }
    await cards.first().screenshot({ path: `${shots}/compare-token-totals-${width}.png` });
    await page.screenshot({ path: `${shots}/compare-${width}.png`, fullPage: true });
  }
});
