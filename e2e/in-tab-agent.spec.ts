import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, expect, test, type Page } from "./test";
import { e2ePort } from "./ports";
import { openDatabase, type Database } from "../lib/db/open";
import { runConfigSchema } from "../lib/benchmarks/run-config";
import { chromiumArgs, chromiumPath } from "./chromium";
import { startStudio, type RunningStudio } from "./studio";

// A person plays the collaborator's seat against an agent generated in their own tab: the studio
// serves the tiny Llama fixture as its policy, the seat's Web Worker loads it onto SwiftShader's
// WebGPU (progress; the weights kept in the browser's cache, so a reload reads them from there) and
// writes each agent turn, which the page posts as the agent's move. Played to the end: the episode
// is stored and scored like any other, its agent named as the served model with its sampling; each
// agent turn's stored prompt is the agent's own (no hidden information) and its text what Node's
// CPU path writes from that prompt with the same seed. A browser without WebGPU is told what would work.

const root = path.resolve(import.meta.dirname, "..");
const PORT = e2ePort(7);
const policy = path.join(root, "lib", "gpu", "fixtures", "llama-tiny");
const shots = "e2e/artifacts";
const SAMPLING = { temperature: 0.7, topP: 0.95, seed: 7, maxTokens: 16 };
let studio: RunningStudio;
let db: Database;

test.describe.configure({ timeout: 600_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  studio = await startStudio(PORT, fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-tab-agent-")), {
    COLBENCH_POLICY_WEIGHTS: policy,
  });
  db = await openDatabase({ pgliteDir: path.join(studio.dataDir, "db"), url: "", takeOver: false });
});

test.afterAll(async () => {
  await db?.close();
  const code = await studio?.stop();
  if (studio) fs.rmSync(studio.dataDir, { recursive: true, force: true });
  expect(code).toBe(0);
});

function cpuTurns(file: string): Promise<string[]> {
  const child = spawn(
    process.execPath,
    [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "e2e/fixtures/generate-turns-cpu.ts", policy, file],
    { cwd: root, env: process.env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (err += c));
  return new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split("\n").pop()!) as string[])
        : reject(new Error(`exited ${code}:\n${err}`)),
    ),
  );
}

const agentTurns = (page: Page) => page.locator('[data-testid="turn"][data-role="agent"]');

async function reply(page: Page, text: string) {
  await expect(page.getByTestId("seat-status")).toHaveAttribute("data-state", "your-move", { timeout: 120_000 });
  const box = page.getByLabel(/Your reply to the agent/);
  await box.fill(text);
  await box.press("Control+Enter");
  await expect(page.getByTestId("turn").filter({ hasText: text }).first()).toBeVisible();
}

test("a person plays the collaborator against an agent generated in their tab, to the end of an ordinary episode", async ({
  webgpuBrowser: browser,
}) => {
  const context = await browser.newContext({ baseURL: studio.url });
  const page = await context.newPage();
  const tasks = (await (await context.request.get("/api/tasks?benchmark=backend")).json()) as {
    items: Array<{ id: number }>;
  };
  const taskId = tasks.items[0]!.id;

  await page.goto("/play");
  await page.getByLabel("Benchmark").selectOption("backend");
  await page.getByLabel("Task id").fill(String(taskId));
  await page.getByRole("radio", { name: /^the collaborator/ }).check();
  await page.getByRole("radio", { name: /agent: in this tab \(served policy weights: llama-tiny\)/ }).check();
  await page.getByLabel("Temperature").fill(String(SAMPLING.temperature));
  await page.getByLabel("Top-p").fill(String(SAMPLING.topP));
  await page.getByLabel("Seed").fill(String(SAMPLING.seed));
  await page.getByLabel("Tokens a turn").fill(String(SAMPLING.maxTokens));
  await page.screenshot({ path: `${shots}/play-in-tab-form.png`, fullPage: true });
  // The checkpoint's bytes held back 4 s (the Web Worker's fetch is routed too), so the load is seen.
  const weights = "**/api/weights/policy/model.safetensors";
  await context.route(weights, async (route) => {
    if (route.request().method() === "GET") await new Promise((resolve) => setTimeout(resolve, 4000));
    await route.continue();
  });
  await page.getByRole("button", { name: "Start playing" }).click();
  await expect(page.getByRole("heading", { name: "You are the collaborator" })).toBeVisible();

  const panel = page.getByTestId("in-tab-agent");
  await expect(panel).toContainText("llama-tiny");
  await expect(panel).toContainText("temperature 0.7, top-p 0.95, seed 7");
  // The weights load (bytes of bytes; this fresh browser's cache holds none), then the agent opens.
  await expect(page.getByTestId("tab-agent-progress")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("tab-agent-loading")).toContainText("of 0.5 MB");
  await expect(page.getByTestId("tab-agent-cache")).toContainText(
    "this browser's cache held none of the 1 weight file",
  );
  await page.screenshot({ path: `${shots}/play-in-tab-loading.png`, fullPage: true });
  await expect(agentTurns(page)).toHaveCount(1, { timeout: 180_000 });
  await expect(panel).toContainText("(software)");
  await expect(page.getByTestId("tab-agent-sent")).toContainText("Agent turn 1 sent");
  await page.screenshot({ path: `${shots}/play-in-tab-first-turn.png`, fullPage: true });

  // A reload loads the model again, now from this browser's cache, and the new tab holds the agent's seat.
  await page.reload();
  await expect(page.getByTestId("tab-agent-ready")).toContainText("(0.5 MB, 1 of 1 files from this browser's cache)", {
    timeout: 120_000,
  });
  await page.screenshot({ path: `${shots}/play-in-tab-cached.png`, fullPage: true });

  // A browser without WebGPU opens the same seat: it is told so, and what would work; it writes nothing.
  const plain = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
  const bare = await (await plain.newContext({ baseURL: studio.url })).newPage();
  await bare.goto(page.url());
  await expect(bare.getByTestId("tab-agent-error")).toHaveAttribute("data-kind", "no-webgpu", { timeout: 60_000 });
  await expect(bare.getByTestId("tab-agent-error")).toContainText("What would work");
  await bare.screenshot({ path: `${shots}/play-in-tab-no-webgpu.png`, fullPage: true });
  await plain.close();

  // Nine replies; the agent's tenth turn is its final answer.
  for (let i = 1; i <= 9; i++) {
    await reply(page, `Reply ${i}: keep it short.`);
    await expect(agentTurns(page)).toHaveCount(i + 1, { timeout: 180_000 });
  }
  const status = page.getByTestId("seat-status");
  await expect(status).toHaveAttribute("data-state", "ended", { timeout: 120_000 });
  await page.screenshot({ path: `${shots}/play-in-tab-ended.png`, fullPage: true });

  // Stored like any played episode, its agent named as the served model with its template and sampling.
  const episodeId = Number(/\/play\/(\d+)\/collaborator/.exec(page.url())![1]);
  const episode = await db.prisma.episode.findUniqueOrThrow({
    where: { id: episodeId },
    include: { run: true, task: true, turns: { orderBy: { index: "asc" } } },
  });
  expect(episode.status).toBe("done");
  expect(typeof episode.reward).toBe("number");
  expect(episode.humanSimulated).toBe(true);
  const config = runConfigSchema.parse(episode.run!.config);
  expect(config.agent).toEqual({ human: true, tab: { model: policy, template: "llama3", topP: 0.95, seed: 7 } });
  expect(config.sampling).toMatchObject({ temperature: 0.7, maxTokens: 16 });
  const agent = episode.turns.filter((t) => t.role === "agent");
  expect(agent).toHaveLength(10);
  expect(episode.turns.filter((t) => t.role === "simulator")).toHaveLength(10);
  for (const turn of agent) {
    const prompt = turn.prompt as Array<{ role: string; content: string }>;
    expect(prompt[0]).toEqual({ role: "system", content: config.prompts.agent });
    expect(prompt[1]).toEqual({ role: "user", content: episode.task.problemDescription });
    expect(JSON.stringify(prompt)).not.toContain(episode.task.groundTruth);
    expect(turn.usage).toMatchObject({ completionTokens: expect.any(Number), promptTokens: expect.any(Number) });
  }
  // Each turn is what Node's CPU path writes from its stored prompt with the run's seed for it.
  const { turnSeed } = await import("../lib/gpu/generate/local-agent");
  const file = path.join(studio.dataDir, "turns.json");
  fs.writeFileSync(
    file,
    JSON.stringify(
      agent.map((t) => ({
        messages: t.prompt,
        sampling: {
          temperature: SAMPLING.temperature,
          topP: SAMPLING.topP,
          seed: turnSeed(SAMPLING.seed, t.prompt as Array<{ role: string; content: string }>),
        },
        maxTokens: SAMPLING.maxTokens,
      })),
    ),
  );
  expect(agent.map((t) => t.rawOutput ?? t.content)).toEqual(await cpuTurns(file));

  // The replay shows it as any episode.
  await status.getByRole("link", { name: /Open the replay/ }).click();
  await expect(page.getByTestId("transcript")).toContainText("human collaborator");
  await page.screenshot({ path: `${shots}/play-in-tab-replay.png`, fullPage: true });
  await context.close();
});
