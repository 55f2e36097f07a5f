import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./test";
import { e2ePort } from "./ports";
import { resolveModel } from "../lib/hub";
import { clipRepo, colbenchDatasetRepo } from "../lib/hub/testing/fixture-repos";
import { startHubServer, type HubServer } from "../lib/hub/testing/hub-server";
import { startStudio, type RunningStudio } from "./studio";

// The studio fetching by name from a test double of the Hugging Face hub (HF_ENDPOINT): the
// official tasks from the Tasks page, the embedder the run form announces, the Models page.
// (Its own studio and cache: the shared one is offline.)

const shots = "e2e/artifacts";
const PORT = e2ePort(40);
let hub: HubServer;
let studio: RunningStudio;
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-hf-"));

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(150_000);
  // The dataset as the hub has it: backend task files only.
  hub = await startHubServer([clipRepo(), colbenchDatasetRepo()]);
  studio = await startStudio(PORT, undefined, {
    HF_ENDPOINT: hub.url,
    HF_HUB_CACHE: cacheDir,
    HF_HUB_OFFLINE: "",
    COLBENCH_ONNX_CACHE: path.join(cacheDir, "onnx-graphs"),
  });
});

test.afterAll(async () => {
  await studio?.stop();
  await hub?.close();
  if (studio) fs.rmSync(studio.dataDir, { recursive: true, force: true });
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

test("the Tasks page imports the official tasks with progress, then stops offering it", async ({ page }) => {
  await page.goto(`${studio.url}/tasks`);
  const panel = page.getByTestId("official-import");
  await expect(panel).toContainText("datasets/facebook/collaborative_agent_bench");
  await page.screenshot({ path: `${shots}/hub-tasks-offer.png`, fullPage: true });
  await panel.getByRole("button", { name: "Import the test split" }).click();
  const results = panel.getByTestId("official-import-results");
  await expect(results).toContainText("backend_tasks/test.jsonl: 10 lines, 10 new, 0 already stored");
  await expect(results).toContainText(
    "has no frontend_tasks/test.jsonl: the benchmark's frontend tasks are built from HuggingFaceM4/WebSight",
  );
  await page.screenshot({ path: `${shots}/hub-tasks-imported.png`, fullPage: true });
  await page.reload();
  // ColBench's dataset is no longer offered (another registered benchmark's, not on this hub, may be).
  await expect(page.getByTestId("official-datasets")).not.toContainText("collaborative_agent_bench");
  await expect(page.getByTestId("official-datasets")).toContainText("lighteval/MATH-Hard");
  // The imported test split (the sample tasks of every registered benchmark come first in the full list).
  await page.goto(`${studio.url}/tasks?split=test`);
  await expect(page.getByTestId("task-list")).toContainText("collaborative_agent_bench/backend_tasks/test.jsonl");
  expect(hub.requests.some((r) => r.path.includes("colbench_code_offline"))).toBe(false);
});

test("the run form says a frontend run will score with CLIP ViT-B/32 and why", async ({ page }) => {
  await page.goto(`${studio.url}/runs/new`);
  await page.getByLabel("Benchmark").selectOption("frontend");
  const choice = page.getByTestId("embedder-choice");
  await expect(choice).toHaveAttribute("data-embedder", "clip-vit-b32");
  await expect(choice).toContainText(
    `CLIP ViT-B/32, the paper's metric: openai/clip-vit-base-patch32 will be downloaded from ${hub.url}`,
  );
  await page.screenshot({ path: `${shots}/hub-run-form.png`, fullPage: true });
});

test("the Models page lists the shared cache and deletes from it", async ({ page }) => {
  await resolveModel("openai/clip-vit-base-patch32", {
    files: ["config.json", "model.safetensors"],
    settings: { endpoint: hub.url, cacheDir, offline: false },
  });
  await page.goto(`${studio.url}/models`);
  const table = page.getByTestId("models-table");
  const clip = table.getByRole("row").filter({ hasText: "openai/clip-vit-base-patch32" });
  await expect(clip).toContainText("525 KB");
  await expect(clip).toContainText("main");
  await expect(table.getByRole("row").filter({ hasText: "datasets/facebook/collaborative_agent_bench" })).toContainText(
    "1 file",
  );
  await page.screenshot({ path: `${shots}/hub-models.png`, fullPage: true });
  page.once("dialog", (dialog) => void dialog.accept());
  await clip.getByRole("button", { name: "Delete openai/clip-vit-base-patch32" }).click();
  await expect(table.getByRole("row").filter({ hasText: "openai/clip-vit-base-patch32" })).toHaveCount(0);
  expect(fs.existsSync(path.join(cacheDir, "models--openai--clip-vit-base-patch32"))).toBe(false);
});

test("a frontend run from the form fetches CLIP and scores with it on ONNX Runtime, inside the studio", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const models = process.env.COLBENCH_E2E_MODELS!;
  await page.goto(`${studio.url}/runs/new`);
  await page.getByLabel("Benchmark").selectOption("frontend");
  await expect(page.getByTestId("embedder-choice")).toHaveAttribute("data-embedder", "clip-vit-b32");
  await page.getByLabel("Agent server").fill(`${models}#ask-then-answer`);
  await page.getByLabel("Simulator server").fill(`${models}#simulator`);
  await page.getByLabel("Limit (first N tasks)").fill("1");
  await page.getByLabel("Name (optional)").fill("clip-run");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page.getByRole("heading", { name: "clip-run" })).toBeVisible();
  await expect(page.getByTestId("run-live")).toContainText("Finished:", { timeout: 90_000 });
  await page.getByTestId("episodes-table").getByRole("link").first().click();
  // The fixture's tiny random CLIP names its own shape; the id is clip-vit-b32 only for B/32's.
  await expect(page.getByText("similarity by clip-vision-h64-l2-p32-i96-e32")).toBeVisible();
  await page.screenshot({ path: `${shots}/hub-clip-episode.png`, fullPage: true });
  expect(fs.readdirSync(path.join(cacheDir, "onnx-graphs")).filter((f) => f.endsWith(".onnx"))).toHaveLength(1);
});
