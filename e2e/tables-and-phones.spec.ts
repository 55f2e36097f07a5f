import { expect, test, type Page } from "./test";

// Tables a researcher can work with (sort by a header, filter, export what is shown with the page's
// numbers), the replay's per-turn timing, every similarity naming its embedder, and no page wider
// than a 390 px phone. Uses global-setup's runs (e2e-backend, e2e-frontend, ...).

const shots = "e2e/artifacts";

async function runId(page: Page, name: string): Promise<number> {
  await page.goto("/runs");
  const href = await page.getByRole("link", { name, exact: true }).getAttribute("href");
  return Number(/\/runs\/(\d+)/.exec(href!)![1]);
}

/** RFC 4180 as the studio writes it (lib/table/csv.ts), read back for comparison. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else {
      field += c;
    }
  }
  return records;
}

/** The table's cells as the page shows them, row by row (header first). */
async function tableText(page: Page, testId: string): Promise<string[][]> {
  return page
    .getByTestId(testId)
    .evaluate((table) => [
      [...table.querySelectorAll("thead th")].map((th) => (th.textContent ?? "").replace(/[▲▼]/g, "").trim()),
      ...[...table.querySelectorAll("tbody tr")].map((tr) =>
        [...tr.querySelectorAll("td")].map((td) => (td.textContent ?? "").trim()),
      ),
    ]);
}

test("the Leaderboard sorts by a header, filters, and exports the numbers it shows", async ({ page, request }) => {
  await page.goto("/leaderboard");
  const table = "leaderboard-backend";
  const reward = page.getByTestId(table).getByRole("columnheader", { name: /% tests passed/i });
  await expect(reward).toHaveAttribute("aria-sort", "none");
  await reward.getByRole("button").click();
  await expect(reward).toHaveAttribute("aria-sort", "descending");
  const mean = (cell: string) => (cell === "–" ? -1 : Number.parseFloat(cell));
  const column = async () => {
    const rows = await tableText(page, table);
    const at = rows[0]!.findIndex((h) => /% tests passed/i.test(h));
    return rows.slice(1).map((r) => mean(r[at]!));
  };
  const desc = await column();
  expect(desc.length).toBeGreaterThan(1);
  expect(desc).toEqual([...desc].sort((a, b) => b - a));
  await reward.getByRole("button").click();
  await expect(reward).toHaveAttribute("aria-sort", "ascending");
  expect(await column()).toEqual([...desc].reverse());

  // The whole table from the route equals the page's cells (same order as loaded: reload to reset).
  await page.reload();
  const shown = await tableText(page, table);
  const csv = await request.get("/api/leaderboard?benchmark=backend&format=csv");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(parseCsv(await csv.text())).toEqual(shown);
  const json = (await (await request.get("/api/leaderboard?benchmark=backend&format=json")).json()) as {
    rows: Array<Record<string, string>>;
  };
  expect(json.rows.map((r) => Object.values(r))).toEqual(shown.slice(1));

  // The filter box keeps the rows holding its words, and "Export CSV" saves exactly those.
  await page.getByTestId(`${table}-box`).getByRole("searchbox").fill("weak");
  await expect(page.getByTestId(`${table}-count`)).toHaveText(/^1 of \d+ shown$/);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId(`${table}-box`).getByRole("button", { name: "Export CSV" }).click(),
  ]);
  const saved = parseCsv(await (await import("node:fs")).promises.readFile(await download.path(), "utf8"));
  expect(saved).toEqual(await tableText(page, table));
  expect(saved[1]![0]).toBe("weak-backend");
  await page.screenshot({ path: `${shots}/leaderboard-filtered-1280.png`, fullPage: true });
});

test("a run's episodes sort in the database and export in that order", async ({ page, request }) => {
  const id = await runId(page, "e2e-backend");
  const pages = (await (await request.get(`/api/runs/${id}/episodes?sort=reward&dir=desc&pageSize=200`)).json()) as {
    items: Array<{ id: number; reward: number | null }>;
    total: number;
  };
  const csv = parseCsv(await (await request.get(`/api/runs/${id}/episodes?sort=reward&dir=desc&format=csv`)).text());
  expect(csv[0]).toEqual(["Episode", "Task", "Sample", "Turns", "Reward", "Status", "Why it failed"]);
  expect(csv.slice(1).map((r) => r[0])).toEqual(pages.items.map((e) => `#${e.id}`));
  expect(csv.length - 1).toBe(pages.total);
  expect((await request.get(`/api/runs/${id}/episodes?sort=password`)).status()).toBe(400);
});

test("the replay times each model turn and a similarity names its embedder", async ({ page }) => {
  const backend = await runId(page, "e2e-backend");
  await page.goto(`/runs/${backend}`);
  await page.getByTestId("episodes-table").getByRole("link").first().click();
  await expect(page.getByTestId("turn-wait").first()).toHaveText(/^\d+\.\d+ s$/);
  await page.screenshot({ path: `${shots}/replay-timing-1280.png` });

  const frontend = await runId(page, "e2e-frontend");
  await page.goto(`/runs/${frontend}`);
  await page.getByTestId("episodes-table").getByRole("link").first().click();
  await expect(page.getByTestId("episode-scored-by")).toHaveText(
    "by default-v2 · weight-free, not comparable with the paper",
  );
});

test("no main page is wider than a 390 px phone, episodes of both benchmarks included", async ({ page }) => {
  const backend = await runId(page, "e2e-backend");
  const frontend = await runId(page, "e2e-frontend");
  const firstEpisode = async (run: number) => {
    const items = (
      (await (await page.request.get(`/api/runs/${run}/episodes`)).json()) as { items: Array<{ id: number }> }
    ).items;
    return items[0]!.id;
  };
  const backendEpisode = await firstEpisode(backend);
  const frontendEpisode = await firstEpisode(frontend);
  await page.setViewportSize({ width: 390, height: 844 });
  const pages: Array<[string, string]> = [
    ["home", "/"],
    ["tasks", "/tasks"],
    ["runs", "/runs"],
    ["run", `/runs/${backend}`],
    ["episode-backend", `/episodes/${backendEpisode}`],
    ["episode-frontend", `/episodes/${frontendEpisode}`],
    ["leaderboard", "/leaderboard"],
    ["compare", `/compare?a=${backend}&b=${await runId(page, "weak-backend")}`],
    ["play", "/play"],
    ["search", "/search?q=function"],
    ["sessions", "/sessions"],
    ["system", "/admin/system"],
  ];
  const wide: string[] = [];
  for (const [name, path] of pages) {
    await page.goto(path);
    await page.waitForLoadState("networkidle").catch(() => {});
    const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    if (width > 390) wide.push(`${path}: ${width}px`);
    await page.screenshot({ path: `${shots}/phone-${name}-390.png`, fullPage: true });
  }
  expect(wide, "pages wider than the 390 px screen").toEqual([]);
});
