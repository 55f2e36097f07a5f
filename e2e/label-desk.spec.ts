import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Locator, type Page } from "./test";
import { e2ePort } from "./ports";
import { startStudio, type RunningStudio } from "./studio";

// The labelling desk at 1280×800, as an annotator sees it: both answers' first lines on screen
// without scrolling on backend and frontend pairs (the task once, the dialogue folded); a graded
// queue with criteria and required reasons; history where a label is reopened and changed; a
// comment draft that survives a reload; "later" and "broken"; the pairs left, the quota and the
// estimate of the time left on the progress line, and a person at the quota.

const root = path.resolve(import.meta.dirname, "..");
const PORT = e2ePort(6);
const shots = "e2e/artifacts";
const VIEW = { width: 1280, height: 800 };

let studio: RunningStudio;
let dataDir: string;
const queues: Record<string, number> = {};
let link = "";
let leadLink = "";
/** A person and a lead of their own for the quota's test (a sign-in link is used once). */
const quotaLinks: Record<string, string> = {};

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
  test.setTimeout(300_000);
  const models = process.env.COLBENCH_E2E_MODELS!;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-desk-"));
  colbench(["db", "seed"]);
  // Two agents whose answers differ (coin answers wrong every other conversation), on each benchmark.
  for (const [benchmark, limit] of [
    ["backend", "4"],
    ["frontend", "2"],
  ]) {
    for (const agent of ["ask-then-answer", "coin"]) {
      colbench([
        "run",
        "--benchmark",
        benchmark!,
        "--limit",
        limit!,
        "--name",
        `${benchmark}-${agent}`,
        "--agent",
        `${models}#${agent}`,
        "--simulator",
        `${models}#simulator`,
      ]);
    }
  }
  link = /sign-in link: (\S+)/.exec(
    colbench(["users", "add", "ann", "--role", "annotator", "--url", `http://127.0.0.1:${PORT}`]),
  )![1]!;
  leadLink = /sign-in link: (\S+)/.exec(
    colbench(["users", "add", "lead", "--role", "researcher", "--url", `http://127.0.0.1:${PORT}`]),
  )![1]!;
  const instructions = path.join(dataDir, "instructions.md");
  fs.writeFileSync(
    instructions,
    "## Which answer would you rather get?\n\nJudge the final answer first; open the dialogue only when you need it.\n",
  );
  const make = (name: string, args: string[]) =>
    (queues[name] = (
      JSON.parse(colbench(["queues", "create", name, "--members", "ann", ...args])) as { id: number }
    ).id);
  make("backend-pairs", ["--runs", "backend-ask-then-answer,backend-coin", "--instructions", instructions]);
  make("frontend-pairs", ["--runs", "frontend-ask-then-answer,frontend-coin"]);
  make("graded", [
    "--runs",
    "backend-ask-then-answer,backend-coin",
    "--graded",
    "--criteria",
    "correctness,clarity",
    "--reasons",
    "tie,both_bad",
  ]);
  // The quota: made with one, then lowered from the command line.
  for (const [name, role] of [
    ["capper", "annotator"],
    ["quota-lead", "researcher"],
  ])
    quotaLinks[name!] = /sign-in link: (\S+)/.exec(
      colbench(["users", "add", name!, "--role", role!, "--url", `http://127.0.0.1:${PORT}`]),
    )![1]!;
  queues.capped = (
    JSON.parse(
      colbench([
        "queues",
        "create",
        "capped",
        "--members",
        "capper",
        "--runs",
        "backend-ask-then-answer,backend-coin",
        "--quota",
        "5",
      ]),
    ) as { id: number }
  ).id;
  expect(JSON.parse(colbench(["queues", "quota", "capped", "2"]))).toEqual({ queue: "capped", quota: 2, was: 5 });
  studio = await startStudio(PORT, dataDir);
});

test.afterAll(async () => {
  const code = await studio?.stop();
  if (studio) fs.rmSync(dataDir, { recursive: true, force: true });
  expect(code, studio?.output()).toBe(0);
});

let annPage: Page | undefined;
/** The annotator's page, signed in once for every test here (a sign-in link is used once). */
async function annotator(browser: Browser): Promise<Page> {
  annPage ??= await signedIn(browser);
  return annPage;
}

async function signedIn(browser: Browser, as: "ann" | "lead" = "ann"): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEW });
  const page = await context.newPage();
  await page.goto((as === "ann" ? link : leadLink).replace(/^http:\/\/[^/]+/, studio.url));
  await page.getByTestId("confirm-signin").click();
  await expect(page.getByTestId("signed-in")).toContainText(as);
  return page;
}

const desk = (page: Page) => page.getByTestId("label-desk");

async function onScreen(page: Page): Promise<number> {
  await expect(desk(page)).toHaveAttribute("data-phase", "ready");
  return Number(await desk(page).getAttribute("data-item"));
}

/** The element's top lies inside the viewport with room for a line of text below it, and it is not cut off sideways. */
async function firstLineVisible(element: Locator) {
  const box = (await element.boundingBox())!;
  expect(box, "on the page").not.toBeNull();
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + 24).toBeLessThanOrEqual(VIEW.height);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(VIEW.width);
}

test("both answers' first lines are on screen at 1280×800 without scrolling, on backend and frontend pairs; the task shows once", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const page = await annotator(browser);
  for (const name of ["backend-pairs", "frontend-pairs"]) {
    await page.goto(`${studio.url}/annotate/${queues[name]}`);
    await onScreen(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    for (const side of ["answer-a", "answer-b"]) await firstLineVisible(page.getByTestId(side));
    // The task once: the dialogues (where turn 0 repeated it) are folded, and leave it out.
    const task = (await page.getByTestId("pair-task").innerText()).replace(/^Task\s*/, "").slice(0, 40);
    const text = await page.locator("main").innerText();
    expect(text.split(task).length - 1).toBe(1);
    await expect(page.getByTestId("side-a-dialogue")).not.toHaveAttribute("open");
    // A trajectory pair's two final answers: where they part is marked on both sides.
    await expect(page.getByTestId("side-a-code").getByTestId("differs")).toHaveCount(1);
    await page.screenshot({ path: `${shots}/label-desk-${name}.png` });
  }
  // The instructions were open on the first visit; on the next they are folded, the answers still on screen.
  await page.goto(`${studio.url}/annotate/${queues["backend-pairs"]}`);
  await onScreen(page);
  await expect(page.getByText("Judge the final answer first")).toBeHidden();
  for (const side of ["answer-a", "answer-b"]) await firstLineVisible(page.getByTestId(side));
  // The annotator's page goes on to the next test (a sign-in link is used once).
});

test("a graded queue: a tie waits for its reason, criteria go with the answer, a label reopened from history is changed, drafts survive a reload, later and broken", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const page = await annotator(browser);
  await page.goto(`${studio.url}/annotate/${queues.graded}`);
  const first = await onScreen(page);
  await expect(page.getByTestId("answer-buttons")).toContainText("A much better");
  // A tie needs a reason: nothing is stored until it is written and Enter pressed.
  await page.keyboard.press("3");
  await expect(page.getByTestId("desk-message")).toContainText('A reason is needed for "tie"');
  await expect(page.getByTestId("comment")).toBeFocused();
  expect(await onScreen(page)).toBe(first);
  await page.getByTestId("comment").fill("both pass the same tests");
  await page.keyboard.press("Enter");
  await expect(desk(page)).not.toHaveAttribute("data-item", String(first));
  const second = await onScreen(page);
  // Criteria: correctness to A, then "A slightly better" from the keyboard.
  await page
    .getByTestId("criteria")
    .getByRole("group", { name: "correctness" })
    .getByRole("button", { name: "A" })
    .click();
  await page.keyboard.press("2");
  await expect(desk(page)).not.toHaveAttribute("data-item", String(second));
  const third = await onScreen(page);
  // A draft comment on the pair on screen survives a reload.
  await page.getByTestId("comment").fill("half-written thought");
  await page.reload();
  expect(await onScreen(page)).toBe(third);
  await expect(page.getByTestId("comment")).toHaveValue("half-written thought");
  await page.screenshot({ path: `${shots}/label-desk-graded.png` });

  // History: both labels; the tie reopened and changed to "B much better" (version 2).
  await page.keyboard.press("h");
  await expect(page.getByTestId("history-entry")).toHaveCount(2);
  await page.getByTestId("history-entry").filter({ hasText: "tie" }).getByRole("button", { name: "Reopen" }).click();
  await expect(page.getByTestId("revising")).toContainText(`pair ${first}`);
  await expect(desk(page)).toHaveAttribute("data-reopened", String(first));
  await page.screenshot({ path: `${shots}/label-desk-reopened.png` });
  await page.keyboard.press("5");
  await expect(page.getByTestId("revising")).toHaveCount(0);
  await expect(page.getByTestId("history-entry").filter({ hasText: "B much better" })).toContainText("version 2");
  // Back on the pair it held, with its draft.
  expect(await onScreen(page)).toBe(third);
  await expect(page.getByTestId("comment")).toHaveValue("half-written thought");

  // What was stored, as the lead's export reads it: the latest version, grades and criteria in a/b terms.
  const lines = colbench(["labels", "export", "graded"])
    .trim()
    .split("\n")
    .map(
      (l) =>
        JSON.parse(l) as {
          item: number;
          choice: string;
          strength: string | null;
          version: number;
          comment: string;
          criteria?: Record<string, string>;
          left: string;
        },
    );
  expect(lines).toHaveLength(2);
  const changed = lines.find((l) => l.item === first)!;
  expect(changed).toMatchObject({ strength: "much", version: 2, comment: "both pass the same tests" });
  expect(changed.choice).toBe(changed.left === "a" ? "b" : "a");
  const graded = lines.find((l) => l.item === second)!;
  expect(graded).toMatchObject({ strength: "slightly", choice: graded.left, criteria: { correctness: graded.left } });

  // Later: the pair goes behind the others; broken: passed on with the comment as the reason.
  await page.getByTestId("comment").press("Escape");
  await page.keyboard.press("l");
  await expect(page.getByTestId("desk-message")).toContainText("Put off");
  const fourth = await onScreen(page);
  expect(fourth).not.toBe(third);
  await page.getByTestId("comment").fill("the answer is cut off");
  await page.getByTestId("comment").press("Escape");
  await page.keyboard.press("b");
  await expect(page.getByTestId("desk-message")).toContainText("broken");
  // Nothing else left: the put-off pair is back.
  expect(await onScreen(page)).toBe(third);
  await page.context().close();
});

test("a lead's pass: the queues, a reviewer's page (reject a label, decide a pair), flags on the agreement page", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const page = await signedIn(browser, "lead");
  await page.goto(`${studio.url}/annotate`);
  await expect(page.getByTestId("queue").filter({ hasText: "graded" })).toContainText("review");
  await page.screenshot({ path: `${shots}/label-lead-queues.png` });
  await page.goto(`${studio.url}/annotate/${queues.graded}/review`);
  const item = page.getByTestId("review-item").first();
  await expect(item).toBeVisible();
  const itemId = Number(await item.getAttribute("data-item"));
  // Reject its first label, then decide the pair "both bad" with a reason.
  await item.getByRole("button", { name: "Reject" }).first().click();
  await expect(item.getByTestId("review-label").first()).toHaveAttribute("data-review", "rejected");
  await item.getByLabel("Reason for the decision").fill("neither handles the edge case");
  await item.getByRole("button", { name: "both bad" }).click();
  await expect(item.getByTestId("review-outcome")).toHaveText("both bad");
  await expect(item).toContainText("decided by lead: neither handles the edge case");
  await page.screenshot({ path: `${shots}/label-review.png` });
  // The raw export says so.
  const lines = colbench(["labels", "export", "graded"])
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { item: number; review: string | null });
  expect(lines.filter((l) => l.item === itemId).map((l) => l.review)).toContain("rejected");
  // The agreement page lists what was flagged as broken, with its reason.
  await page.goto(`${studio.url}/annotate/${queues.graded}/agreement`);
  await expect(page.getByTestId("flags")).toContainText("the answer is cut off");
  await expect(page.getByTestId("flags")).toContainText("broken");
  await page.getByTestId("flags").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/label-flags.png` });
  await page.context().close();
});

test("pairs left, the quota and the time left at one's own pace sit above both answers at 1280×800; at the quota no pair comes and the desk says why; the lead raises it", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const signIn = async (name: string) => {
    const context = await browser.newContext({ viewport: VIEW });
    const page = await context.newPage();
    await page.goto(quotaLinks[name]!.replace(/^http:\/\/[^/]+/, studio.url));
    await page.getByTestId("confirm-signin").click();
    await expect(page.getByTestId("signed-in")).toContainText(name);
    return page;
  };
  const page = await signIn("capper");
  await page.goto(`${studio.url}/annotate/${queues.capped}`);
  await onScreen(page);
  // Four pairs, but the quota lets this person label two.
  await expect(page.getByTestId("progress-left")).toHaveText("2");
  await expect(page.getByTestId("progress-quota")).toHaveText("· quota 0 of 2");
  await expect(page.getByTestId("progress-estimate")).toContainText("after your first label");
  // A label takes its time on the pair's timer: the estimate is the pairs left at that pace.
  await page.waitForTimeout(1500);
  await page.keyboard.press("1");
  await expect(page.getByTestId("progress-left")).toHaveText("1");
  await expect(page.getByTestId("progress-quota")).toHaveText("· quota 1 of 2");
  await expect(page.getByTestId("progress-estimate")).toHaveText(/^\s*· about \d+ s at your pace$/);
  await onScreen(page);
  // The line and both answers' first lines, without scrolling.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  for (const id of ["progress-left", "progress-quota", "progress-estimate", "answer-a", "answer-b"])
    await firstLineVisible(page.getByTestId(id));
  await page.screenshot({ path: `${shots}/label-desk-quota.png` });
  // The second label reaches the quota: no pair comes, and the desk says why.
  await page.keyboard.press("2");
  await expect(page.getByTestId("desk-quota")).toContainText("your quota of 2 pairs");
  await expect(page.getByTestId("progress-quota")).toHaveText("· quota 2 of 2 reached");
  await expect(page.getByTestId("progress-left")).toHaveText("0");
  await expect(desk(page)).toHaveAttribute("data-phase", "done");
  await page.screenshot({ path: `${shots}/label-desk-at-quota.png` });

  // The lead raises it from the queue's agreement page; the person gets one more pair.
  const lead = await signIn("quota-lead");
  await lead.goto(`${studio.url}/annotate/${queues.capped}/agreement`);
  await expect(lead.getByLabel("Pairs per person (quota):")).toHaveValue("2");
  await lead.getByLabel("Pairs per person (quota):").fill("3");
  await lead.getByTestId("quota-setting").getByRole("button", { name: "Save" }).click();
  await expect(lead.getByTestId("quota-setting")).toContainText("Saved: 3 pairs per person.");
  const listed = colbench(["queues", "list", "--json"])
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { name: string; quota: number | null });
  expect(listed.find((q) => q.name === "capped")?.quota).toBe(3);
  await page.reload();
  await onScreen(page);
  await expect(page.getByTestId("progress-left")).toHaveText("1");
  await expect(page.getByTestId("progress-quota")).toHaveText("· quota 2 of 3");
  await lead.context().close();
  await page.context().close();
});
