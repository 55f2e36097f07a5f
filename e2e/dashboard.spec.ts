import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "./test";

// The researcher's dashboard: best-of-k, charts, search across episodes, import from the browser,
// the keyboard overlay.

const shots = "e2e/artifacts";
const models = () => process.env.COLBENCH_E2E_MODELS!;

async function waitForRun(request: APIRequestContext, id: number, episodes: number) {
  const done = async () =>
    (
      (await (await request.get(`/api/runs/${id}/episodes`)).json()) as { items: Array<{ status: string }> }
    ).items.filter((e) => e.status === "done").length;
  await expect.poll(done, { timeout: 90_000 }).toBe(episodes);
}

/** A move for a seat once it is that seat's turn (the route answers 409 until then). */
async function move(request: APIRequestContext, episodeId: number, role: "agent" | "simulator", text: string) {
  await expect
    .poll(async () => (await request.post(`/api/episodes/${episodeId}/move`, { data: { role, text } })).status(), {
      timeout: 30_000,
    })
    .toBe(200);
}

test("a best-of-2 run shows best-of-2 success on the Leaderboard and its charts on its page", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const created = await request.post("/api/runs", {
    data: {
      benchmark: "backend",
      tasks: "ids=1-3",
      bestOf: 2,
      agent: `${models()}#ask-then-answer`,
      simulator: `${models()}#simulator`,
      name: "best-of-two",
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  await waitForRun(request, id, 6);

  await page.goto("/leaderboard");
  const row = page.getByTestId("leaderboard-backend").getByRole("row", { name: /best-of-two/ });
  await expect(row.getByTestId("best-of-k")).toHaveText("best-of-2: 100.0% [100.0%, 100.0%]");

  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId("run-figures")).toContainText("Best-of-2 success");
  for (const chart of [
    "chart-rewards",
    "chart-by-turns",
    "chart-turns",
    "chart-answer-length",
    "chart-tokens",
    "token-totals",
  ]) {
    await expect(page.getByTestId(chart)).toBeVisible();
  }
  // Every episode scored 1: the reward histogram has one bar, over "1".
  await expect(page.getByTestId("chart-rewards").locator(".recharts-bar-rectangle path")).toHaveCount(1);
  await page.screenshot({ path: `${shots}/run-charts.png`, fullPage: true });
});

test("a phrase said in one episode is found and opens the replay at its turn", async ({ page, request }) => {
  test.setTimeout(90_000);
  const tasks = (await (await request.get("/api/tasks?benchmark=backend")).json()) as { items: Array<{ id: number }> };
  const play = await request.post("/api/play", {
    data: { benchmark: "backend", taskId: tasks.items[6]!.id, seat: "both" },
  });
  const { episodeId } = (await play.json()) as { episodeId: number };
  await move(request, episodeId, "agent", "Should the zebra crossing budget count twice?");
  await move(request, episodeId, "simulator", "No, only once.");
  await move(request, episodeId, "agent", "I WANT TO ANSWER:\ndef f():\n    return 1");
  await expect.poll(async () => (await request.get(`/episodes/${episodeId}`)).status()).toBe(200);

  await page.goto("/");
  await expect(page.getByTestId("shortcut-help")).toHaveAttribute("data-listening", "");
  await page.keyboard.press("/");
  await expect(page).toHaveURL(/\/search$/);
  await page.getByLabel("Words or phrase").fill('"zebra crossing budget"');
  await page.getByRole("button", { name: "Search" }).click();
  const results = page.getByTestId("search-results").getByRole("listitem");
  await expect(results).toHaveCount(1);
  await expect(results.locator("mark")).toHaveText(["zebra", "crossing", "budget"]);
  await page.screenshot({ path: `${shots}/search.png`, fullPage: true });
  await results.getByRole("link", { name: new RegExp(`episode #${episodeId}, turn 1`) }).click();
  await expect(page).toHaveURL(new RegExp(`/episodes/${episodeId}#turn-1$`));
  await expect(page.locator("#turn-1")).toContainText("zebra crossing budget");
  await expect(page.locator("#turn-1")).toBeInViewport();
});

test("a task file uploaded in the browser is imported and its broken lines are named", async ({ page }) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "colbench-upload-")), "my-tasks.jsonl");
  const task = (n: number) =>
    JSON.stringify({
      problem_description: `Uploaded task ${n}: add two numbers. The signature of the function is: def add${n}(a, b)`,
      ground_truth: `def add${n}(a, b):\n    return a + b`,
      test_cases: { test1: `add${n}(1, 2)` },
    });
  fs.writeFileSync(file, [task(1), '{"problem_description": "no answer"}', task(2), "{not json"].join("\n") + "\n");
  await page.goto("/tasks");
  await page.getByRole("link", { name: "Import a file" }).click();
  await page.getByLabel("File (JSONL)").setInputFiles(file);
  await page.getByLabel("Split").fill("uploaded");
  await page.getByRole("button", { name: "Import" }).click();
  const result = page.getByTestId("import-result");
  await expect(result).toContainText("4 lines read: 2 tasks stored, 0 already there");
  await expect(page.getByTestId("import-problems")).toContainText("my-tasks.jsonl:2: ground_truth:");
  await expect(page.getByTestId("import-problems")).toContainText("my-tasks.jsonl:4:");
  await page.screenshot({ path: `${shots}/import.png`, fullPage: true });
  // Again: nothing new.
  await page.getByRole("button", { name: "Import" }).click();
  await expect(result).toContainText("0 tasks stored, 2 already there");
});

test("? opens the list of the page's keyboard shortcuts", async ({ page }) => {
  await page.goto("/episodes/1");
  const help = page.getByTestId("shortcut-help");
  await expect(help).toHaveAttribute("data-listening", "");
  await page.keyboard.press("?");
  await expect(help).toBeVisible();
  await expect(help).toContainText("the agent's previous and next proposal");
  await expect(help).toContainText("search every episode");
  await page.screenshot({ path: `${shots}/shortcuts.png` });
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();
});
