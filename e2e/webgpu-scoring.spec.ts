import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { CpuModel } from "../lib/gpu/model/cpu-model";
import { LocalScorer } from "../lib/gpu/model/scorer";
import { ModelTokenizer } from "../lib/gpu/model/tokenizer";
import { folderSource } from "../lib/gpu/node/folder-source";
import { scoreEpisode } from "../lib/gpu/score-episode";
import type { EpisodeToScore, TurnScores } from "../lib/store/episode-scores";
import { chromiumPath, webgpuChromiumArgs } from "./chromium";
import { startStudio, type RunningStudio } from "./studio";

// "Score turns in this browser" on a replay: a studio serving the tiny Llama fixtures as critic and
// policy; Chromium scores the episode's agent turns and their candidates on SwiftShader's WebGPU in
// a Web Worker, stores them, and the chart draws them. The CPU path computes the same advantages
// here in Node, each prompt run whole; they must agree, and survive a reload (they were stored).

const root = path.resolve(import.meta.dirname, "..");
const PORT = Number(process.env.COLBENCH_E2E_PORT ?? 3210) + 5;
const critic = path.join(root, "lib", "gpu", "fixtures", "llama-tiny");
const policy = path.join(root, "lib", "gpu", "fixtures", "llama-tiny-bf16");
let studio: RunningStudio;

test.use({ launchOptions: { executablePath: chromiumPath(), args: webgpuChromiumArgs } });
test.describe.configure({ timeout: 360_000 });

function colbench(dataDir: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [path.join(root, "cli", "bin.mjs"), ...args], { cwd: root, env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "" }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (c) => (out += c));
  child.stderr!.on("data", (c) => (out += c));
  return new Promise((resolve, reject) => child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`colbench ${args.join(" ")} exited ${code}:\n${out}`)))));
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const models = process.env.COLBENCH_E2E_MODELS;
  if (!models) throw new Error("the scripted model server is started by e2e/global-setup.ts");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-webgpu-"));
  await colbench(dataDir, ["db", "seed"]);
  // A short agent prompt keeps each turn's prompt a few hundred tokens: SwiftShader is slow.
  const prompt = path.join(dataDir, "agent-prompt.txt");
  fs.writeFileSync(prompt, "Write the function the human asks for.\n{problem_description}\n{dialogue_history}");
  await colbench(dataDir, ["run", "--benchmark", "backend", "--tasks", "ids=1", "--name", "webgpu", "--agent", `${models}#ask-then-answer`, "--simulator", `${models}#simulator`, "--agent-prompt", prompt]);
  // One sampled candidate beside each agent turn's own output (turns without candidates are scored
  // by their output alone: lib/gpu/score-episode.test.ts).
  await colbench(dataDir, ["candidates", "webgpu", "--policy", `${models}#ask-then-answer`, "--n", "1"]);
  studio = await startStudio(PORT, dataDir, { COLBENCH_CRITIC_WEIGHTS: critic, COLBENCH_POLICY_WEIGHTS: policy });
});

test.afterAll(async () => {
  const code = await studio?.stop();
  if (studio) fs.rmSync(studio.dataDir, { recursive: true, force: true });
  expect(code).toBe(0);
});

async function cpuReference(inputs: EpisodeToScore): Promise<TurnScores[]> {
  const open = async (dir: string) => {
    const source = folderSource(dir);
    return new LocalScorer(await CpuModel.load(source), await ModelTokenizer.load(source), path.basename(dir));
  };
  return scoreEpisode(inputs, await open(critic), await open(policy), { template: "llama3" });
}

test("scores an episode's agent turns in the browser on WebGPU, stores and charts the CPU reference's advantages", async ({ page }) => {
  const inputs = (await (await fetch(`${studio.url}/api/episodes/1/score-inputs`)).json()) as EpisodeToScore;
  expect(inputs.turns.length).toBeGreaterThan(1);
  expect(inputs.turns.some((t) => t.candidates.length > 0)).toBe(true);
  const expected = await cpuReference(inputs);

  await page.goto(`${studio.url}/episodes/1`);
  await expect(page.getByTestId("advantage-chart")).toHaveCount(0);
  const panel = page.getByTestId("browser-scoring");
  await expect(panel).toContainText("critic llama-tiny · policy llama-tiny-bf16");
  await panel.getByRole("button", { name: "Score turns in this browser" }).click();
  await expect(page.getByTestId("scoring-progress")).toBeVisible({ timeout: 240_000 });
  await page.screenshot({ path: "e2e/artifacts/webgpu-scoring-progress.png", fullPage: true });
  await expect(page.getByTestId("browser-scoring-stored")).toBeVisible({ timeout: 300_000 });
  await expect(panel).toContainText("GPU: ");
  await expect(panel).toContainText("(software)");
  await expect(panel).toContainText("Chat template: llama3 (critic's chat template)");
  const candidates = expected.reduce((n, t) => n + (t.candidates?.length ?? 0), 0);
  await expect(page.getByTestId("browser-scoring-stored")).toHaveText(`Stored the advantages of ${expected.length} agent turns (${candidates} candidates).`);

  const check = async () => {
    const chart = page.getByTestId("advantage-chart");
    await expect(chart).toBeVisible();
    const points = JSON.parse((await chart.getAttribute("data-points"))!) as Array<{ index: number; advantage: number }>;
    expect(points.map((p) => p.index)).toEqual(expected.map((t) => t.turn));
    points.forEach((p, i) => expect(Math.abs(p.advantage - expected[i]!.advantage!), `turn ${p.index}`).toBeLessThan(1e-3));
    // Every candidate's advantage, as the replay lists them.
    const shown = (await page.getByTestId("candidate").evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-advantage"))))).sort((a, b) => a - b);
    const want = expected.flatMap((t) => (t.candidates ?? []).map((c) => c.advantage!)).sort((a, b) => a - b);
    expect(shown).toHaveLength(want.length);
    shown.forEach((a, i) => expect(Math.abs(a - want[i]!)).toBeLessThan(1e-3));
  };
  await check();
  await page.screenshot({ path: "e2e/artifacts/webgpu-scoring.png", fullPage: true });
  // Stored: a fresh page draws the same.
  await page.reload();
  await check();
});
