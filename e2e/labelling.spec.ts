import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser, type BrowserContext, type Page } from "./test";
import { e2ePort } from "./ports";
import { startStudio, type RunningStudio } from "./studio";

// A shared studio (users defined, so no local mode): two annotators label one queue with overlap 2
// from the keyboard in two browsers, one of them undoes a label, the studio is killed with
// SIGKILL mid-queue and started again, and no stored label is lost; then a researcher reads the
// agreement page.

const root = path.resolve(import.meta.dirname, "..");
const PORT = e2ePort(4);
const shots = "e2e/artifacts";
const PAIRS = 5;

let studio: RunningStudio;
let dataDir: string;
let queueId: number;
let quietId: number;
let loudId: number;
const links: Record<string, string> = {};

function colbench(args: string[]): string {
  const result = spawnSync(process.execPath, [path.join(root, "cli", "bin.mjs"), ...args], {
    cwd: root,
    env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "" },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`colbench ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const models = process.env.COLBENCH_E2E_MODELS!;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-label-"));
  colbench(["db", "seed"]);
  for (const [name, agent] of [
    ["model-a", "ask-then-answer"],
    ["model-b", "never-answer"],
  ]) {
    colbench([
      "run",
      "--benchmark",
      "backend",
      "--tasks",
      `ids=1-${PAIRS}`,
      "--name",
      name!,
      "--agent",
      `${models}#${agent}`,
      "--simulator",
      `${models}#simulator`,
    ]);
  }
  for (const [name, role] of [
    ["ann1", "annotator"],
    ["ann2", "annotator"],
    ["ann3", "annotator"],
    ["res", "researcher"],
  ]) {
    links[name!] = /sign-in link: (\S+)/.exec(
      colbench(["users", "add", name!, "--role", role!, "--url", `http://127.0.0.1:${PORT}`]),
    )![1]!;
  }
  const instructions = path.join(dataDir, "instructions.md");
  fs.writeFileSync(
    instructions,
    "## Which answer would you rather get?\n\nJudge the **final code** first. <script>window.pwned = 1</script> [a link](javascript:alert(1))\n",
  );
  const created = JSON.parse(
    colbench([
      "queues",
      "create",
      "duel",
      "--runs",
      "model-a,model-b",
      "--overlap",
      "2",
      "--members",
      "ann1,ann2",
      "--instructions",
      instructions,
    ]),
  ) as { id: number; items: number };
  expect(created.items).toBe(PAIRS);
  queueId = created.id;
  // Two more for a third annotator (a sign-in link is used once): one that hides the automatic
  // scores, and a plain one beside it.
  quietId = (
    JSON.parse(
      colbench(["queues", "create", "quiet", "--runs", "model-a,model-b", "--members", "ann3", "--hide-scores"]),
    ) as { id: number }
  ).id;
  loudId = (
    JSON.parse(
      colbench(["queues", "create", "loud", "--runs", "model-a,model-b", "--members", "ann3", "--limit", "1"]),
    ) as { id: number }
  ).id;
  studio = await startStudio(PORT, dataDir);
});

test.afterAll(async () => {
  const code = await studio?.stop();
  if (studio) fs.rmSync(dataDir, { recursive: true, force: true });
  expect(code, studio?.output()).toBe(0);
});

async function signedIn(browser: Browser, name: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The link shows whom it signs in; the session starts only on confirming (a same-origin POST).
  await page.goto(links[name]!.replace(/^http:\/\/[^/]+/, studio.url));
  await page.getByTestId("confirm-signin").click();
  await expect(page.getByTestId("signed-in")).toContainText(name);
  return { context, page };
}

const desk = (page: Page) => page.getByTestId("label-desk");

/** The pair on screen once the desk is ready for a key. */
async function onScreen(page: Page): Promise<number> {
  await expect(desk(page)).toHaveAttribute("data-phase", "ready");
  return Number(await desk(page).getAttribute("data-item"));
}

/** Presses a key and waits until the label is stored and the next pair (or the end) is on screen. */
async function press(page: Page, key: string): Promise<number | null> {
  const before = await onScreen(page);
  await page.keyboard.press(key);
  await expect(desk(page)).not.toHaveAttribute("data-item", String(before));
  await expect(desk(page)).toHaveAttribute("data-phase", /ready|done/);
  const now = await desk(page).getAttribute("data-item");
  return now ? Number(now) : null;
}

async function storedLabels(cookiePage: Page): Promise<Array<{ item: number; annotator: string; choice: string }>> {
  const response = await cookiePage.request.get(`${studio.url}/api/queues/${queueId}/export?format=raw`);
  expect(response.status()).toBe(200);
  return (await response.text())
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { item: number; annotator: string; choice: string });
}

test("two annotators label one queue from the keyboard; undo; kill -9 loses no stored label; agreement appears", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const one = await signedIn(browser, "ann1");
  const two = await signedIn(browser, "ann2");
  const researcher = await signedIn(browser, "res");
  const seen: Record<string, number[]> = { ann1: [], ann2: [] };

  for (const [name, { page }] of [
    ["ann1", one],
    ["ann2", two],
  ] as const) {
    await page.goto(`${studio.url}/annotate`);
    await page.getByRole("link", { name: "duel" }).click();
    seen[name]!.push(await onScreen(page));
  }
  // The instructions are Markdown, sanitised: the heading renders, the script and the javascript: link do not.
  await expect(
    one.page.getByTestId("instructions").getByRole("heading", { name: "Which answer would you rather get?" }),
  ).toBeVisible();
  expect(await one.page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  expect(await one.page.getByTestId("instructions").innerHTML()).not.toMatch(/<script|javascript:/i);
  // Both sides are on screen with no run or model name.
  await expect(one.page.getByTestId("side-a")).toBeVisible();
  await expect(one.page.getByTestId("side-b")).toBeVisible();
  await expect(one.page.getByTestId("label-desk")).not.toContainText(/model-a|model-b|ask-then-answer|never-answer/);
  await one.page.screenshot({ path: `${shots}/label-desk.png`, fullPage: false });

  // Two labels each from the keyboard.
  const label = async (name: "ann1" | "ann2", page: Page, key: string) => {
    const next = await press(page, key);
    if (next !== null) seen[name]!.push(next);
    return next;
  };
  await label("ann1", one.page, "1");
  await label("ann2", two.page, "3");
  await label("ann1", one.page, "2");
  await label("ann2", two.page, "1");
  await expect(one.page.getByTestId("progress-mine")).toHaveText("2");

  // Undo: the last pair comes back and the label is gone; labelled again with another key.
  const last = seen.ann1!.at(-2)!;
  await one.page.keyboard.press("u");
  await expect(desk(one.page)).toHaveAttribute("data-item", String(last));
  await expect(one.page.getByTestId("progress-mine")).toHaveText("1");
  expect((await storedLabels(researcher.page)).filter((l) => l.annotator === "ann1").map((l) => l.item)).not.toContain(
    last,
  );
  seen.ann1!.pop();
  await label("ann1", one.page, "4");
  await expect(one.page.getByTestId("progress-mine")).toHaveText("2");

  // kill -9 mid-queue: every label acknowledged so far is there after the restart.
  const before = await storedLabels(researcher.page);
  expect(before).toHaveLength(4);
  await studio.stop("SIGKILL");
  studio = await startStudio(PORT, dataDir);
  expect(await storedLabels(researcher.page)).toEqual(before);
  // Each page reloads onto the pair it held.
  for (const [name, { page }] of [
    ["ann1", one],
    ["ann2", two],
  ] as const) {
    await page.reload();
    expect(await onScreen(page)).toBe(seen[name]!.at(-1));
  }

  // Both label to the end, keys in turn.
  const keys = ["1", "2", "3", "1", "2", "4"];
  for (const [name, { page }] of [
    ["ann1", one],
    ["ann2", two],
  ] as const) {
    for (let i = 0; (await desk(page).getAttribute("data-phase")) !== "done"; i++) {
      await label(name, page, keys[i % keys.length]!);
      expect(i).toBeLessThan(PAIRS);
    }
    await expect(page.getByTestId("desk-done")).toBeVisible();
  }
  // No one got the same pair twice; each labelled every pair once; overlap 2 reached everywhere.
  const stored = await storedLabels(researcher.page);
  expect(stored).toHaveLength(PAIRS * 2);
  for (const name of ["ann1", "ann2"]) {
    const mine = stored.filter((l) => l.annotator === name).map((l) => l.item);
    expect(new Set(mine).size).toBe(PAIRS);
    expect(new Set(seen[name]).size).toBe(seen[name]!.length);
  }
  await expect(two.page.getByTestId("progress-queue")).toHaveText(String(PAIRS * 2));

  // The researcher's agreement page: kappa for the two, Fleiss and alpha, charts.
  await researcher.page.goto(`${studio.url}/annotate/${queueId}/agreement`);
  await expect(researcher.page.getByTestId("cohen")).toContainText("ann1 · ann2");
  await expect(researcher.page.getByTestId("cohen")).toContainText(`${PAIRS} shared`);
  await expect(researcher.page.getByTestId("fleiss")).toHaveText(/^-?\d\.\d{3}$|^undefined$/);
  await expect(researcher.page.getByTestId("chart-choices").locator("svg").first()).toBeVisible();
  await researcher.page.screenshot({ path: `${shots}/label-agreement.png`, fullPage: true });
  const report = (await (
    await researcher.page.request.get(`${studio.url}/api/queues/${queueId}/agreement`)
  ).json()) as { labels: number; cohen: Array<{ shared: number }> };
  expect(report.labels).toBe(PAIRS * 2);
  expect(report.cohen[0]!.shared).toBe(PAIRS);
  // An annotator may not read it.
  expect((await one.page.request.get(`${studio.url}/api/queues/${queueId}/agreement`)).status()).toBe(403);
  // The Leaderboard rates the two runs by these labels.
  await researcher.page.goto(`${studio.url}/leaderboard`);
  await expect(researcher.page.getByTestId("leaderboard-human")).toContainText("model-a");
  for (const context of [one.context, two.context, researcher.context]) await context.close();
});

test("a queue that hides scores shows no pass/fail on the desk or in its answers; ? lists the desk's keys, not search; pairs left for me", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page } = await signedIn(browser, "ann3");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${studio.url}/annotate/${quietId}`);
  await onScreen(page);
  await expect(page.getByTestId("progress-left")).toHaveText(String(PAIRS));
  await expect(page.getByTestId("scores-hidden")).toBeVisible();
  await expect(page.getByTestId("test-results")).toHaveCount(0);
  const next = await (
    await page.request.post(`${studio.url}/api/queues/${quietId}/next`, { data: { holding: [] } })
  ).text();
  expect(next).toContain('"pair"');
  expect(next).not.toMatch(/"(passed|tests|reward)"/);
  // One label: the answer the page gets carries no score either, and one pair fewer is left.
  const answers: string[] = [];
  page.on(
    "response",
    (r) => void (r.url().endsWith(`/api/queues/${quietId}/labels`) && r.text().then((t) => answers.push(t))),
  );
  await press(page, "1");
  await expect(page.getByTestId("progress-left")).toHaveText(String(PAIRS - 1));
  await expect.poll(() => answers.length).toBe(1);
  expect(answers[0]).not.toMatch(/"(passed|tests|reward)"/);

  // `?` on the desk: its own keys; no `/`, which an annotator may not use.
  await expect(page.getByTestId("shortcut-help")).toHaveAttribute("data-listening", "");
  await page.keyboard.press("?");
  const help = page.getByTestId("shortcut-help");
  await expect(help).toBeVisible();
  await expect(help).toContainText("Labelling");
  await expect(help).toContainText("skip this pair");
  await expect(help).not.toContainText("search every episode");
  await page.screenshot({ path: `${shots}/label-desk-no-scores.png` });
  await page.keyboard.press("Escape");
  await page.keyboard.press("/");
  // Nothing to wait for when nothing happens: long enough for a client navigation to have begun.
  await page.waitForTimeout(500);
  await expect(page).toHaveURL(new RegExp(`/annotate/${quietId}$`));

  // A plain queue's desk still shows each test's result.
  await page.goto(`${studio.url}/annotate/${loudId}`);
  await onScreen(page);
  await expect(page.getByTestId("test-results").first()).toBeVisible();
  await expect(page.getByTestId("scores-hidden")).toHaveCount(0);
  await context.close();
});
