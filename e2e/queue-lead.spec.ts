import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "./test";
import { e2ePort } from "./ports";
import { startStudio, type RunningStudio } from "./studio";

// A queue's lead on its page (/annotate/ID/manage): the routes refuse annotators and signed-out
// visitors by URL and change nothing; the lead adds pairs, browses them with their labels (paged,
// sorted, exported), edits instructions, takes a member off and adds them back, closes, archives,
// reopens, turns training on, and deletes the queue (its labels written to a file first). Then an
// annotator at a training queue sees a gold pair's answer only after its label is stored.

const root = path.resolve(import.meta.dirname, "..");
const PORT = e2ePort(31);
const shots = "e2e/artifacts";
const TASKS = 6;

let studio: RunningStudio;
let dataDir: string;
let leadId: number;
let trainId: number;
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

interface Listed {
  id: number;
  name: string;
  items: number;
  state: string;
  members: string[];
  training: boolean;
}

/** The queues as the CLI lists them (archived too), read over the studio's own database. */
async function listed(): Promise<Listed[]> {
  const response = await fetch(`${studio.url}/api/health`);
  expect(response.ok).toBe(true);
  return colbench(["queues", "list", "--json", "--archived"])
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Listed);
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const models = process.env.COLBENCH_E2E_MODELS!;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-lead-"));
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
      `ids=1-${TASKS}`,
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
    ["res", "researcher"],
  ]) {
    links[name!] = /sign-in link: (\S+)/.exec(
      colbench(["users", "add", name!, "--role", role!, "--url", `http://127.0.0.1:${PORT}`]),
    )![1]!;
  }
  leadId = (
    JSON.parse(
      colbench(["queues", "create", "led", "--runs", "model-a,model-b", "--members", "ann1", "--limit", "2"]),
    ) as { id: number }
  ).id;
  // One more from the CLI: the pairs it holds are left out and counted.
  expect(JSON.parse(colbench(["queues", "add-pairs", "led", "--runs", "model-a,model-b", "--limit", "1"]))).toEqual({
    queue: "led",
    added: 1,
    gold: 0,
    slots: 1,
    already: 2,
  });
  trainId = (
    JSON.parse(
      colbench([
        "queues",
        "create",
        "trainee",
        "--runs",
        "model-a,model-b",
        "--members",
        "ann2",
        "--gold",
        "2",
        "--gold-rate",
        "1",
        "--training",
      ]),
    ) as { id: number }
  ).id;
  studio = await startStudio(PORT, dataDir);
});

test.afterAll(async () => {
  const code = await studio?.stop();
  if (studio) fs.rmSync(dataDir, { recursive: true, force: true });
  expect(code, studio?.output()).toBe(0);
});

const pages: Record<string, Page> = {};
async function signedIn(browser: Browser, name: string): Promise<Page> {
  if (pages[name]) return pages[name];
  const page = await (await browser.newContext()).newPage();
  await page.goto(links[name]!.replace(/^http:\/\/[^/]+/, studio.url));
  await page.getByTestId("confirm-signin").click();
  await expect(page.getByTestId("signed-in")).toContainText(name);
  return (pages[name] = page);
}

const json = { "Content-Type": "application/json" };

test("by URL, a signed-out visitor gets 401 and an annotator (a member) 403 from every lead route; nothing changes", async ({
  browser,
}) => {
  const before = (await listed()).find((q) => q.id === leadId)!;
  const calls: Array<[string, string, unknown]> = [
    ["PATCH", `/api/queues/${leadId}`, { state: "closed" }],
    ["PATCH", `/api/queues/${leadId}`, { instructions: "hijacked", trainingMode: true }],
    ["DELETE", `/api/queues/${leadId}`, { confirm: "led" }],
    ["POST", `/api/queues/${leadId}/members`, { remove: ["ann1"], add: ["ann2"] }],
    ["POST", `/api/queues/${leadId}/pairs`, { source: { from: "runs", a: "model-a", b: "model-b" } }],
    ["GET", `/api/queues/${leadId}/items?format=csv`, undefined],
    ["GET", `/annotate/${leadId}/manage`, undefined],
  ];
  for (const [method, url, body] of calls) {
    const anonymous = await fetch(`${studio.url}${url}`, {
      method,
      headers: body ? json : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(anonymous.status, `${method} ${url} signed out`).toBe(401);
  }
  const annotator = await signedIn(browser, "ann1");
  for (const [method, url, body] of calls) {
    const response = await annotator.request.fetch(`${studio.url}${url}`, { method, data: body });
    expect(response.status(), `${method} ${url} as ann1`).toBe(403);
    expect(await response.text()).not.toContain("model-a");
  }
  const after = (await listed()).find((q) => q.id === leadId)!;
  expect(after).toEqual(before);
  expect(after).toMatchObject({ state: "open", items: 3, members: ["ann1"], training: false });
  // The queue list offers the page to the lead only.
  await annotator.goto(`${studio.url}/annotate`);
  await expect(annotator.getByTestId("queue")).toHaveCount(1);
  await expect(annotator.getByRole("link", { name: "manage" })).toHaveCount(0);
});

test("the lead adds pairs, browses them with their labels, and runs the queue from its page", async ({ browser }) => {
  test.setTimeout(120_000);
  const lead = await signedIn(browser, "res");
  const ann = await signedIn(browser, "ann1");
  await lead.goto(`${studio.url}/annotate`);
  await lead.getByTestId("queue").filter({ hasText: "led" }).getByRole("link", { name: "manage" }).click();
  await expect(lead.getByTestId("manage-queue")).toBeVisible();
  await expect(lead.getByTestId("items-count")).toHaveText("3 pairs");

  // More pairs: the three tasks not in it yet.
  const add = lead.getByTestId("add-pairs");
  await add.getByLabel("Run A").selectOption("model-a");
  await add.getByLabel("Run B").selectOption("model-b");
  await add.getByRole("button", { name: "Add pairs" }).click();
  await expect(lead.getByTestId("pairs-done")).toHaveText("3 pairs added; 3 were in the queue already.");
  await expect(lead.getByTestId("items-count")).toHaveText("6 pairs");
  await add.getByRole("button", { name: "Add pairs" }).click();
  await expect(lead.getByTestId("pairs-error")).toContainText("is in queue led already");

  // ann1 labels two pairs; the browser shows who said what.
  for (let i = 0; i < 2; i++) {
    const next = (await (
      await ann.request.post(`${studio.url}/api/queues/${leadId}/next`, { data: { holding: [] } })
    ).json()) as { pair: { itemId: number } };
    const stored = await ann.request.post(`${studio.url}/api/queues/${leadId}/labels`, {
      data: { itemId: next.pair.itemId, side: "tie", ms: 900, comment: i ? "close call" : null, holding: [] },
    });
    expect(stored.status()).toBe(200);
  }
  await lead.goto(`${studio.url}/annotate/${leadId}/manage?size=5`);
  const table = lead.getByTestId("items");
  await expect(table.locator("tbody tr")).toHaveCount(5);
  await expect(table).toContainText("ann1: tie");
  await expect(table).toContainText("ann1: close call");
  // Sorted by labels, most first, by the database; then the second page.
  await table.getByRole("button", { name: /Labels/ }).click();
  await expect(lead).toHaveURL(/sort=labels&dir=desc/);
  await expect(table.locator("tbody tr").first()).toContainText("1 of 1");
  await lead.getByRole("link", { name: "Next" }).click();
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await expect(table.locator("tbody tr")).toContainText("0 of 1");
  // The export is every pair, as shown.
  const csv = await lead.request.get(`${studio.url}/api/queues/${leadId}/items?format=csv&sort=labels&dir=desc`);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines).toHaveLength(7);
  expect(lines[1]).toContain("ann1: tie");
  const asJson = (await (await lead.request.get(`${studio.url}/api/queues/${leadId}/items?format=json`)).json()) as {
    rows: Array<{ labels: string }>;
  };
  expect(asJson.rows.map((r) => r.labels)).toEqual(["1 of 1", "1 of 1", "0 of 1", "0 of 1", "0 of 1", "0 of 1"]);

  await lead.goto(`${studio.url}/annotate/${leadId}/manage`);
  for (const width of [1280, 390]) {
    await lead.setViewportSize({ width, height: 900 });
    await lead.screenshot({ path: `${shots}/queue-manage-${width}.png`, fullPage: true });
  }
  await lead.setViewportSize({ width: 1280, height: 900 });

  // Instructions: what the desk shows next.
  await lead.getByTestId("instructions-editor").fill("## Judge the **tests** first");
  await lead.getByRole("button", { name: "Save instructions" }).click();
  await expect(lead.getByTestId("settings-done")).toHaveText("Instructions saved.");
  await ann.goto(`${studio.url}/annotate/${leadId}`);
  await expect(ann.getByRole("heading", { name: "Judge the tests first" })).toBeVisible();

  // A member taken off keeps their labels and is refused at the desk; added back, they go on.
  await lead.getByRole("button", { name: "Remove ann1" }).click();
  await expect(lead.getByTestId("people-done")).toContainText("ann1 taken off: their labels stay");
  expect((await ann.request.post(`${studio.url}/api/queues/${leadId}/next`, { data: { holding: [] } })).status()).toBe(
    403,
  );
  await lead.getByTestId("queue-people").getByRole("combobox").selectOption("ann1");
  await lead.getByRole("button", { name: "Add", exact: true }).click();
  await expect(lead.getByTestId("people-done")).toHaveText("ann1 may label it now.");
  await expect(lead.getByTestId("members")).toContainText("ann1");

  // Close: the desk hands nothing out; archive: off the list; reopen: on again.
  await lead.getByRole("button", { name: "Close" }).click();
  await expect(lead.getByTestId("queue-state")).toHaveAttribute("data-state", "closed");
  expect((await ann.request.post(`${studio.url}/api/queues/${leadId}/next`, { data: { holding: [] } })).status()).toBe(
    409,
  );
  await lead.getByRole("button", { name: "Archive" }).click();
  await expect(lead.getByTestId("queue-state")).toHaveAttribute("data-state", "archived");
  await lead.goto(`${studio.url}/annotate`);
  await expect(lead.getByTestId("queue").filter({ hasText: "led" })).toHaveCount(0);
  await lead.getByRole("link", { name: "show archived queues" }).click();
  await lead.getByTestId("queue").filter({ hasText: "led" }).getByRole("link", { name: "manage" }).click();
  await lead.getByRole("button", { name: "Reopen" }).click();
  await expect(lead.getByTestId("queue-state")).toHaveAttribute("data-state", "open");
  expect((await ann.request.post(`${studio.url}/api/queues/${leadId}/next`, { data: { holding: [] } })).status()).toBe(
    200,
  );
  // A controlled box: it shows the stored setting once the page has read it again.
  await lead.getByTestId("training-mode").click();
  await expect(lead.getByTestId("settings-done")).toHaveText("Training mode on.");
  await expect(lead.getByTestId("training-mode")).toBeChecked();
  expect((await listed()).find((q) => q.id === leadId)).toMatchObject({ state: "open", training: true, items: 6 });

  // Delete: the name typed again; the labels go to a file first, and the file holds them.
  const del = lead.getByTestId("delete-queue");
  const button = del.getByRole("button", { name: "Delete with its labels" });
  await expect(button).toBeDisabled();
  await del.getByLabel("Type the queue's name to confirm").fill("led");
  await button.click();
  await expect(lead.getByTestId("delete-done")).toContainText("Its 2 labels were written first to");
  const file = /written first to (\S+)\.$/.exec((await lead.getByTestId("delete-done").textContent())!)![1]!;
  expect(path.dirname(file)).toBe(path.join(dataDir, "exports"));
  const written = fs
    .readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { queue: string; annotator: string; choice: string });
  expect(written.map((l) => [l.queue, l.annotator, l.choice])).toEqual([
    ["led", "ann1", "tie"],
    ["led", "ann1", "tie"],
  ]);
  expect((await listed()).map((q) => q.name)).not.toContain("led");
});

test("training: a gold pair's answer and reason come only after its label is stored, before the next pair", async ({
  browser,
}) => {
  const ann = await signedIn(browser, "ann2");
  // Everything the desk is sent before a label: no word of gold in it.
  const sent: string[] = [];
  ann.on("response", (response) => {
    if (/\/api\/queues\/\d+\/next$/.test(response.url())) void response.text().then((t) => sent.push(t));
  });
  await ann.goto(`${studio.url}/annotate/${trainId}`);
  const desk = ann.getByTestId("label-desk");
  await expect(desk).toHaveAttribute("data-phase", "ready");
  const first = await desk.getAttribute("data-item");
  await expect(ann.getByTestId("gold-feedback")).toHaveCount(0);
  await expect.poll(() => sent.length).toBeGreaterThan(0);
  for (const body of sent) expect(body).not.toMatch(/gold|better answer|tests passed/i);

  const labelled = ann.waitForResponse((r) => /\/labels$/.test(r.url()));
  await ann.keyboard.press("1");
  const reply = (await (await labelled).json()) as { stored: boolean; feedback: { matched: boolean } };
  expect(reply.stored).toBe(true);
  const feedback = ann.getByTestId("gold-feedback");
  await expect(feedback).toBeVisible();
  await expect(desk).toHaveAttribute("data-phase", "feedback");
  // The labelled pair stays on screen under the word.
  await expect(desk).toHaveAttribute("data-item", first!);
  await expect(feedback).toHaveAttribute("data-matched", reply.feedback.matched ? "yes" : "no");
  await expect(ann.getByTestId("gold-reason")).toContainText("The better answer: 100% of the hidden tests passed");
  // Keys for answers do nothing while it is up.
  await ann.keyboard.press("2");
  await expect(desk).toHaveAttribute("data-phase", "feedback");
  for (const width of [1280, 390]) {
    await ann.setViewportSize({ width, height: 900 });
    await ann.screenshot({ path: `${shots}/gold-feedback-${width}.png`, fullPage: false });
  }
  await ann.setViewportSize({ width: 1280, height: 900 });
  await ann.keyboard.press("Enter");
  await expect(feedback).toHaveCount(0);
  await expect(desk).toHaveAttribute("data-phase", "ready");
  await expect(desk).not.toHaveAttribute("data-item", first!);
  // The gold label stays as given: undo is refused with the reason.
  await ann.keyboard.press("u");
  await expect(ann.getByText(/Nothing taken back: this was a gold pair/)).toBeVisible();
  const raw = await (await signedIn(browser, "res")).request.get(`${studio.url}/api/queues/${trainId}/export`);
  expect((await raw.text()).trim().split("\n")).toHaveLength(1);
});
