import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "./test";
import { e2ePort } from "./ports";
import { ClipEmbedder } from "../lib/scoring/frontend/embedders/clip";
import { cosine } from "../lib/scoring/frontend/similarity";
import { leaks, recordResponses, secretPieces } from "./response-recorder";
import { startStudio, type RunningStudio } from "./studio";

// The collaborator seat's live CLIP similarity: a studio serving the tiny CLIP fixture as its CLIP
// weights; one person in each seat of a frontend episode. Each page the agent sends is rendered by
// the studio, and the collaborator's tab embeds it and the target on SwiftShader's WebGPU in a Web
// Worker. The value must equal the TypeScript reference's cosine of the same two renders (in Node),
// and change when the agent's page changes; the agent's browser receives neither the target nor
// CLIP's weights.

const root = path.resolve(import.meta.dirname, "..");
const PORT = e2ePort(6);
const tinyClip = path.join(root, "lib", "scoring", "frontend", "embedders", "fixtures", "tiny-clip");
let studio: RunningStudio;

test.describe.configure({ timeout: 300_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  studio = await startStudio(PORT, fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-clip-")), {
    COLBENCH_CLIP_WEIGHTS: tinyClip,
  });
});

test.afterAll(async () => {
  const code = await studio?.stop();
  if (studio) fs.rmSync(studio.dataDir, { recursive: true, force: true });
  expect(code).toBe(0);
});

const page = (color: string, title: string) =>
  `<html><head><link href="https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css" rel="stylesheet"></head><body class="bg-${color}-700 text-white"><h1 class="text-6xl p-8">${title}</h1><p class="p-8 text-xl">${title} `.repeat(
    1,
  ) + `opening hours, menu and address.</p><div class="m-8 h-64 bg-white"></div></body></html>`;

/** Replaces the Monaco editor's text as a person pasting it would. */
async function setEditor(p: Page, text: string) {
  const editor = p.getByTestId("code-editor").locator(".monaco-editor").first();
  await expect(editor).toBeVisible();
  await editor.click();
  await p.keyboard.press("Control+A");
  await p.evaluate((pasted) => {
    const data = new DataTransfer();
    data.setData("text/plain", pasted);
    document.activeElement!.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
  await expect(editor.locator(".view-lines")).toContainText(text.split("\n")[0]!.slice(0, 20));
}

async function reply(p: Page, label: RegExp, text: string) {
  await expect(p.getByTestId("seat-status")).toHaveAttribute("data-state", "your-move", { timeout: 60_000 });
  const box = p.getByLabel(label);
  await box.fill(text);
  await box.press("Control+Enter");
  await expect(p.getByTestId("turn").filter({ hasText: text }).first()).toBeVisible();
}

const reference = ClipEmbedder.load(tinyClip);
async function referenceSimilarity(agentRender: string, targetRender: string): Promise<number> {
  const png = async (id: string) =>
    new Uint8Array(await (await fetch(`${studio.url}/api/renders/${id}`)).arrayBuffer());
  return cosine(await reference.embed(await png(agentRender)), await reference.embed(await png(targetRender)));
}

test("the collaborator seat shows the CLIP similarity of the agent's current page to the target, computed in the tab; so does the replay, page by page", async ({
  webgpuBrowser: browser,
}) => {
  const context = await browser.newContext({ baseURL: studio.url });
  const tasks = (await (await context.request.get("/api/tasks?benchmark=frontend")).json()) as {
    items: Array<{ id: number }>;
  };
  const taskId = tasks.items[0]!.id;
  const created = await context.request.post("/api/play", { data: { benchmark: "frontend", taskId, seat: "both" } });
  expect(created.status()).toBe(201);
  const { episodeId } = (await created.json()) as { episodeId: number };
  const hidden = (await (await context.request.get(`/api/tasks/${taskId}/hidden`)).json()) as { groundTruth: string };

  const agent = await context.newPage();
  const recorder = await recordResponses(agent);
  const requested: string[] = [];
  agent.on("request", (r) => requested.push(new URL(r.url()).pathname));
  const collaborator = await context.newPage();
  await agent.goto(`/play/${episodeId}/agent`);
  await collaborator.goto(`/play/${episodeId}/collaborator`);
  const similarity = collaborator.getByTestId("live-similarity");
  await expect(similarity).toContainText("waiting for the agent's first page");

  // First page: a green café.
  await setEditor(agent, page("green", "Greenhouse Cafe"));
  await reply(agent, /Message to the collaborator/, "Here is a first draft.");
  await expect(similarity).toHaveAttribute("data-state", "ready", { timeout: 180_000 });
  const first = Number(await similarity.getAttribute("data-value"));
  const firstRender = (await similarity.getAttribute("data-agent-render"))!;
  const targetSrc = (await collaborator
    .getByTestId("compare-renders")
    .getByRole("img", { name: "Your target" })
    .getAttribute("src"))!;
  const targetRender = targetSrc.split("/").pop()!;
  await expect(similarity).toContainText(first.toFixed(4));
  await expect(similarity).toContainText(/clip-vision-h64.* on .*\(software\)/);
  const firstReference = await referenceSimilarity(firstRender, targetRender);
  console.log(`collaborator tab: ${first.toFixed(6)}, TypeScript reference in Node: ${firstReference.toFixed(6)}`);
  expect(Math.abs(first - firstReference)).toBeLessThan(1e-4);
  await collaborator.screenshot({ path: "e2e/artifacts/play-collaborator-similarity.png", fullPage: true });

  // The collaborator answers; the agent sends another page: the value follows it.
  await reply(collaborator, /Your reply to the agent/, "Make it dark and put the hours in a white box.");
  await setEditor(agent, page("gray", "Night Owl Diner"));
  await reply(agent, /Message to the collaborator/, "Darker now.");
  await expect(similarity).not.toHaveAttribute("data-agent-render", firstRender, { timeout: 60_000 });
  await expect(similarity).toHaveAttribute("data-state", "ready", { timeout: 120_000 });
  const second = Number(await similarity.getAttribute("data-value"));
  const secondRender = (await similarity.getAttribute("data-agent-render"))!;
  expect(secondRender).not.toBe(firstRender);
  expect(Math.abs(second - first)).toBeGreaterThan(1e-4);
  expect(Math.abs(second - (await referenceSimilarity(secondRender, targetRender)))).toBeLessThan(1e-4);
  await expect(similarity).toContainText(second.toFixed(4));

  // The episode ends; its replay shows each page's similarity to the target, in the browser too.
  await reply(collaborator, /Your reply to the agent/, "That will do; submit it.");
  await expect(agent.getByTestId("seat-status")).toHaveAttribute("data-state", "your-move", { timeout: 60_000 });
  await agent.getByRole("button", { name: "Submit final answer…" }).click();
  await agent.getByRole("dialog").getByRole("button", { name: "Submit final answer", exact: true }).click();
  await expect(agent.getByTestId("seat-status")).toHaveAttribute("data-state", "ended", { timeout: 60_000 });
  await collaborator.goto(`/episodes/${episodeId}`);
  const replayed = collaborator.getByTestId("live-similarity");
  await expect(replayed).toHaveAttribute("data-agent-render", firstRender, { timeout: 120_000 });
  await expect(replayed).toHaveAttribute("data-state", "ready", { timeout: 120_000 });
  expect(Math.abs(Number(await replayed.getAttribute("data-value")) - first)).toBeLessThan(1e-6);
  await collaborator.keyboard.press("]");
  await expect(replayed).toHaveAttribute("data-agent-render", secondRender, { timeout: 120_000 });
  await expect(replayed).toHaveAttribute("data-state", "ready");
  expect(Math.abs(Number(await replayed.getAttribute("data-value")) - second)).toBeLessThan(1e-6);
  await collaborator.screenshot({ path: "e2e/artifacts/replay-similarity.png", fullPage: true });

  // The agent's browser got neither the target nor CLIP (its weights or anything computed with them).
  await recorder.settle();
  expect(requested.filter((p) => p.startsWith("/api/weights/") || p.includes(targetRender))).toEqual([]);
  expect(
    leaks(recorder.bodies, [
      hidden.groundTruth,
      ...secretPieces(hidden.groundTruth, 30).filter((l) => !/tailwindcss|<!doctype|<meta/i.test(l)),
      targetRender,
    ]),
  ).toEqual([]);
  await context.close();
});

test("the served CLIP checkpoint answers a range request with just those bytes (a tab skips the text tower)", async ({
  webgpuBrowser: browser,
}) => {
  const context = await browser.newContext({ baseURL: studio.url });
  const file = fs.readFileSync(path.join(tinyClip, "model.safetensors"));
  const part = await context.request.get("/api/weights/clip/model.safetensors", { headers: { Range: "bytes=8-1031" } });
  expect(part.status()).toBe(206);
  expect(part.headers()["content-range"]).toBe(`bytes 8-1031/${file.byteLength}`);
  expect(Buffer.compare(await part.body(), file.subarray(8, 1032))).toBe(0);
  const tail = await context.request.get("/api/weights/clip/model.safetensors", {
    headers: { Range: `bytes=${file.byteLength - 10}-` },
  });
  expect(Buffer.compare(await tail.body(), file.subarray(file.byteLength - 10))).toBe(0);
  expect(
    (
      await context.request.get("/api/weights/clip/model.safetensors", {
        headers: { Range: `bytes=${file.byteLength}-` },
      })
    ).status(),
  ).toBe(416);
  const whole = await context.request.get("/api/weights/clip/model.safetensors");
  expect(whole.status()).toBe(200);
  expect(whole.headers()["accept-ranges"]).toBe("bytes");
  await context.close();
});
