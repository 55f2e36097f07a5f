import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./test";
import { e2ePort } from "./ports";
import { startStudio, type RunningStudio } from "./studio";

// The agreement page of a queue labelled by 20 people (e2e/fixtures/label-crowd.ts), as its lead
// reads it at 1280×800: pairwise Cohen's kappa as a heatmap with every name on both axes, each
// person's mean kappa, kappas over few shared pairs marked, and the 190-row list folded away
// (and as CSV) instead of filling the page.

const root = path.resolve(import.meta.dirname, "..");
const PORT = e2ePort(53);
const shots = "e2e/artifacts";
const VIEW = { width: 1280, height: 800 };

let studio: RunningStudio;
let dataDir: string;
let queueId = 0;
let people: string[] = [];
let leadLink = "";

function run(args: string[]): string {
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "" },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-agreement-"));
  const crowd = JSON.parse(
    run([path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "e2e/fixtures/label-crowd.ts"]).trim(),
  ) as { queue: number; people: string[] };
  queueId = crowd.queue;
  people = crowd.people;
  leadLink = /sign-in link: (\S+)/.exec(
    run([
      path.join(root, "cli", "bin.mjs"),
      "users",
      "add",
      "lead",
      "--role",
      "researcher",
      "--url",
      `http://127.0.0.1:${PORT}`,
    ]),
  )![1]!;
  studio = await startStudio(PORT, dataDir);
});

test.afterAll(async () => {
  const code = await studio?.stop();
  if (studio) fs.rmSync(dataDir, { recursive: true, force: true });
  expect(code, studio?.output()).toBe(0);
});

test("20 people: a heatmap with every name on both axes, mean kappas, few-pair kappas marked, the list folded", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: VIEW });
  const page = await context.newPage();
  await page.goto(leadLink.replace(/^http:\/\/[^/]+/, studio.url));
  await page.getByTestId("confirm-signin").click();
  await expect(page.getByTestId("signed-in")).toContainText("lead");
  await page.goto(`${studio.url}/annotate/${queueId}/agreement`);

  const heatmap = page.getByTestId("kappa-heatmap");
  await expect(heatmap).toBeVisible();
  // Every name on both axes: 20 column heads and 20 row heads, none skipped.
  const columns = await heatmap.locator("thead th[scope=col]").allInnerTexts();
  const rows = await heatmap.locator("tbody th[scope=row]").allInnerTexts();
  expect(columns.slice(0, 20).map((c) => c.trim())).toEqual(expect.arrayContaining(people));
  expect(rows.map((r) => r.trim()).sort()).toEqual([...people].sort());
  // 20 × 19 cells (both ways round), each person's mean kappa at the row's end.
  await expect(heatmap.getByTestId("heatmap-cell")).toHaveCount(20 * 19);
  await expect(heatmap.getByTestId("mean-kappa")).toHaveCount(20);
  // The report's own figures: the 8 who labelled every pair share 16 (not few) with each other, 8·7 cells;
  // the rest share fewer than 10 with everyone.
  const report = (await (await page.request.get(`${studio.url}/api/queues/${queueId}/agreement`)).json()) as {
    cohen: Array<{ a: string; b: string; shared: number; kappa: number | null }>;
    meanKappa: Array<{ name: string; mean: number | null; partners: number }>;
  };
  expect(report.cohen).toHaveLength(190);
  const few = report.cohen.filter((c) => c.shared < 10).length;
  await expect(heatmap.locator("[data-few=true]")).toHaveCount(2 * few);
  expect(2 * (190 - few)).toBe(8 * 7);
  // One cell and one mean read as the report says.
  const first = report.cohen[0]!;
  const row = heatmap.getByTestId("heatmap-row").filter({ has: page.locator(`th:text-is("${first.a}")`) });
  await expect(
    row
      .getByTestId("heatmap-cell")
      .filter({ hasText: first.kappa!.toFixed(2) })
      .first(),
  ).toBeVisible();
  const mean = report.meanKappa.find((m) => m.name === first.a)!;
  await expect(row.getByTestId("mean-kappa")).toContainText(`${mean.mean!.toFixed(2)} (${mean.partners})`);
  // The full list is there, folded; the CSV has the same 190 rows.
  const list = page.getByTestId("cohen-list");
  await expect(list).not.toHaveAttribute("open");
  await expect(page.getByTestId("cohen").locator("tr")).toHaveCount(190);
  const csv = await (await page.request.get(`${studio.url}/api/queues/${queueId}/agreement?format=cohen-csv`)).text();
  expect(csv.trim().split("\r\n")).toHaveLength(191);
  // The page no longer grows with the square of the people: the heatmap is 20 rows tall, and the
  // whole page about half the 7,119 px the 190-row list alone made it.
  expect((await heatmap.boundingBox())!.height).toBeLessThan(1200);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height).toBeLessThan(4000);
  await heatmap.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/label-agreement-heatmap.png` });
  await page.screenshot({ path: `${shots}/label-agreement-20.png`, fullPage: true });
  await context.close();
});
