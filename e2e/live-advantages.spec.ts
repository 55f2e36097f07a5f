import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "./test";
import { e2ePort } from "./ports";
import { openDatabase } from "../lib/db/open";
import { leaks, recordResponses, secretPieces } from "./response-recorder";
import { startStudio, type RunningStudio } from "./studio";

// Live advantages while an episode plays, with the tiny Llama fixtures the studio serves as critic and
// policy. A researcher in the collaborator's seat: each agent turn is scored in the tab (SwiftShader's
// WebGPU, in the scoring Web Worker) the moment it is stored, its value shown beside the turn and on
// the running line with what computed it, and kept. A person in the agent's seat in practice play
// (coach mode): the studio scores each turn once it is sent and the tab gets the numbers only; no
// response that tab receives carries the task's final answer, its tests or the critic's lead-in.

const root = path.resolve(import.meta.dirname, "..");
const PORT = e2ePort(23);
const shots = "e2e/artifacts";
const critic = path.join(root, "lib", "gpu", "fixtures", "llama-tiny");
const policy = path.join(root, "lib", "gpu", "fixtures", "llama-tiny-bf16");
let studio: RunningStudio;
/** The episode the collaborator's test played, and its live values by turn. */
let played: { episodeId: number; values: Array<{ turn: number; value: number }> } | null = null;

test.describe.configure({ timeout: 420_000 });

function colbench(dataDir: string, args: string[]): Promise<void> {
  const child = spawn(process.execPath, [path.join(root, "cli", "bin.mjs"), ...args], {
    cwd: root,
    env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (out += c));
  return new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`colbench ${args.join(" ")}: ${code}\n${out}`)),
    ),
  );
}

test.beforeAll(async () => {
  test.setTimeout(200_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-live-advantages-"));
  await colbench(dataDir, ["db", "seed"]);
  studio = await startStudio(PORT, dataDir, { COLBENCH_CRITIC_WEIGHTS: critic, COLBENCH_POLICY_WEIGHTS: policy });
});

test.afterAll(async () => {
  const code = await studio?.stop();
  if (studio) fs.rmSync(studio.dataDir, { recursive: true, force: true });
  expect(code).toBe(0);
});

const models = () => {
  const url = process.env.COLBENCH_E2E_MODELS;
  if (!url) throw new Error("the scripted model server is started by e2e/global-setup.ts");
  return url;
};

async function firstBackendTask(page: Page): Promise<number> {
  const list = (await (await page.request.get(`${studio.url}/api/tasks?benchmark=backend`)).json()) as {
    items: Array<{ id: number }>;
  };
  return list.items[0]!.id;
}

async function startPlay(page: Page, taskId: number, seat: RegExp, opponent: string) {
  await page.goto(`${studio.url}/play`);
  await page.getByLabel("Benchmark").selectOption("backend");
  await page.getByLabel("Task id").fill(String(taskId));
  await page.getByRole("radio", { name: seat }).check();
  await page.getByLabel("The other side").fill(opponent);
  await page.getByRole("button", { name: "Start playing" }).click();
}

async function reply(page: Page, label: RegExp, text: string) {
  await expect(page.getByTestId("seat-status")).toHaveAttribute("data-state", "your-move", { timeout: 60_000 });
  const box = page.getByLabel(label);
  await box.fill(text);
  await box.press("Control+Enter");
  await expect(page.getByTestId("turn").filter({ hasText: text }).first()).toBeVisible();
}

/** The agent turns on the page and the live advantage shown beside each. */
async function agentTurnsWithValues(page: Page): Promise<Array<{ turn: number; value: number }>> {
  const turns = await page.locator('[data-testid="turn"][data-role="agent"]').all();
  const out: Array<{ turn: number; value: number }> = [];
  for (const turn of turns) {
    const badge = turn.getByTestId("live-advantage");
    await expect(badge).toBeVisible({ timeout: 180_000 });
    out.push({
      turn: Number(await badge.getAttribute("data-turn")),
      value: Number(await badge.getAttribute("data-value")),
    });
  }
  return out;
}

test("a researcher in the collaborator's seat sees each agent turn's advantage as it is stored, computed in the tab", async ({
  webgpuPage: page,
}) => {
  const taskId = await firstBackendTask(page);
  await startPlay(page, taskId, /^the collaborator/, `${models()}#ask-then-answer`);
  await expect(page.getByRole("heading", { name: "You are the collaborator" })).toBeVisible();
  const line = page.getByTestId("live-advantages");
  await expect(line).toHaveAttribute("data-where", "tab");
  // The agent's first turn (its question) is scored before the person answers it.
  await expect(page.locator('[data-testid="turn"][data-role="agent"]')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.getByTestId("live-advantage")).toHaveCount(1, { timeout: 180_000 });
  await expect(line).toContainText("a browser on");
  await expect(line).toContainText("(software)");
  await expect(line).toContainText("critic llama-tiny · policy llama-tiny-bf16");
  await page.screenshot({ path: `${shots}/live-advantages-collaborator-first.png`, fullPage: true });

  await reply(page, /Your reply to the agent/, "Nothing weighs zero; treat it as free.");
  await reply(page, /Your reply to the agent/, "Round the price to cents.");
  await expect(page.getByTestId("seat-status")).toHaveAttribute("data-state", "ended", { timeout: 60_000 });
  const shown = await agentTurnsWithValues(page);
  expect(shown.length).toBeGreaterThanOrEqual(2);
  expect(shown.every((s) => Number.isFinite(s.value))).toBe(true);
  // The running line has a point per agent turn, the same values.
  await expect
    .poll(async () => JSON.parse((await line.getAttribute("data-points")) ?? "[]") as unknown[])
    .toHaveLength(shown.length);
  const points = JSON.parse((await line.getAttribute("data-points"))!) as Array<{ index: number; advantage: number }>;
  expect(points.map((p) => [p.index, p.advantage])).toEqual(shown.map((s) => [s.turn, s.value]));
  await page.screenshot({ path: `${shots}/live-advantages-collaborator.png`, fullPage: true });

  // Kept: the episode's live values, read back from the studio, are the ones shown.
  const episodeId = Number(/\/play\/(\d+)\//.exec(page.url())![1]);
  const kept = (await (await page.request.get(`${studio.url}/api/episodes/${episodeId}/advantages/live`)).json()) as {
    advantages: Array<{ turn: number; advantage: number; device: string }>;
  };
  expect(kept.advantages.map((a) => [a.turn, a.advantage])).toEqual(shown.map((s) => [s.turn, s.value]));
  expect(kept.advantages.every((a) => !a.device.startsWith("studio: "))).toBe(true);
  played = { episodeId, values: shown };
});

test("after the episode, `colbench rank` with the same folders stores each turn's live value (within 1e-5)", async ({
  webgpuPage: page,
}) => {
  expect(played, "the collaborator's test played the episode").not.toBeNull();
  const { episodeId, values } = played!;
  const db = await openDatabase({ pgliteDir: path.join(studio.dataDir, "db"), url: "", takeOver: false });
  try {
    const { runId } = await db.prisma.episode.findUniqueOrThrow({ where: { id: episodeId }, select: { runId: true } });
    // SWEET-RL's steps on the played run, as a researcher runs them: a candidate beside each turn's own output, then rank.
    await colbench(studio.dataDir, [
      "candidates",
      String(runId),
      "--policy",
      `${models()}#ask-then-answer`,
      "--n",
      "1",
    ]);
    await colbench(studio.dataDir, ["rank", String(runId), "--critic-weights", critic, "--policy-weights", policy]);
    const ranked = await db.prisma.candidate.findMany({
      where: { turn: { episodeId }, index: 0 },
      select: { advantage: true, turn: { select: { index: true } } },
      orderBy: { turn: { index: "asc" } },
    });
    expect(ranked.map((r) => r.turn.index)).toEqual(values.map((v) => v.turn));
    for (const row of ranked) {
      const live = values.find((v) => v.turn === row.turn.index)!.value;
      expect(
        Math.abs(live - row.advantage!),
        `turn ${row.turn.index}: live ${live}, rank ${row.advantage}`,
      ).toBeLessThanOrEqual(1e-5);
    }
  } finally {
    await db.close();
  }
  // The replay charts rank's values now; the live ones stay kept beside them.
  await page.goto(`${studio.url}/episodes/${episodeId}`);
  await expect(page.getByTestId("advantage-chart")).toHaveAttribute("data-source", "rank");
});

test("a person playing the agent in practice play sees the critic's judgement of each sent turn, and nothing hidden", async ({
  webgpuPage: page,
}) => {
  const taskId = await firstBackendTask(page);
  const hidden = (await (await page.request.get(`${studio.url}/api/tasks/${taskId}/hidden`)).json()) as {
    groundTruth: string;
    testCases: Array<{ expression: string }> | null;
  };
  const recorder = await recordResponses(page);
  await startPlay(page, taskId, /^the agent/, `${models()}#simulator`);
  await expect(page.getByRole("heading", { name: "You are the agent" })).toBeVisible();
  const line = page.getByTestId("live-advantages");
  await expect(line).toHaveAttribute("data-where", "studio");
  await expect(page.getByTestId("live-advantage")).toHaveCount(0);

  await reply(page, /Message to the collaborator/, "What should an empty list give back?");
  // Once sent, the studio scores it; the tab is told the number.
  await expect(page.getByTestId("live-advantage")).toHaveCount(1, { timeout: 180_000 });
  await expect(line).toContainText("the studio on webgpu");
  await expect(line).toContainText("critic llama-tiny · policy llama-tiny-bf16");
  await expect(page.locator('[data-testid="turn"][data-role="simulator"]')).toHaveCount(2, { timeout: 60_000 });
  await page.screenshot({ path: `${shots}/live-advantages-coach.png`, fullPage: true });

  await page.getByRole("button", { name: "Submit final answer…" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Submit final answer", exact: true }).click();
  await expect(page.getByTestId("seat-status")).toHaveAttribute("data-state", "ended", { timeout: 60_000 });
  const shown = await agentTurnsWithValues(page);
  expect(shown.map((s) => s.turn)).toEqual([1, 3]);

  await recorder.settle();
  const body = hidden.groundTruth.split("\n").slice(1).join("\n");
  const secrets = [
    hidden.groundTruth,
    ...secretPieces(body),
    ...(hidden.testCases ?? []).map((t) => t.expression),
    "In light that the final answer is",
  ];
  expect(leaks(recorder.bodies, secrets)).toEqual([]);
  // What the seat asked for was numbers: the live route's answers were among what it received.
  expect(recorder.bodies.some((b) => b.includes('"advantages":[') && b.includes('"criticModel":"llama-tiny"'))).toBe(
    true,
  );
});
