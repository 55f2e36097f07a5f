import net from "node:net";
import path from "node:path";
import { expect, test, type APIRequestContext, type Locator, type Page } from "./test";
import { loadScriptedTasks, startScriptedServer } from "./fixtures/scripted-model-server";
import { leaks, recordResponses, secretPieces } from "./response-recorder";

const shots = "e2e/artifacts";
const models = () => process.env.COLBENCH_E2E_MODELS!;

interface Hidden {
  groundTruth: string;
  testCases: Array<{ name: string; expression: string }> | null;
}

async function firstTask(request: APIRequestContext, benchmark: "backend" | "frontend", skip = 0): Promise<number> {
  const list = (await (await request.get(`/api/tasks?benchmark=${benchmark}`)).json()) as {
    items: Array<{ id: number }>;
  };
  return list.items[skip]!.id;
}

/** What an agent must never receive: the reference (past its public signature line), every test, the target page. */
async function secretsOf(
  request: APIRequestContext,
  taskId: number,
  benchmark: "backend" | "frontend",
): Promise<string[]> {
  const hidden = (await (await request.get(`/api/tasks/${taskId}/hidden`)).json()) as Hidden;
  if (benchmark === "backend") {
    const body = hidden.groundTruth.split("\n").slice(1).join("\n");
    return [hidden.groundTruth, ...secretPieces(body), ...(hidden.testCases ?? []).map((t) => t.expression)];
  }
  // The stylesheet link and doctype are boilerplate every page (the agent's own starter too) carries.
  return [
    hidden.groundTruth,
    ...secretPieces(hidden.groundTruth, 30).filter((l) => !/tailwindcss|<!doctype|<meta/i.test(l)),
  ];
}

async function startPlay(
  page: Page,
  benchmark: "backend" | "frontend",
  taskId: number | null,
  seat: RegExp,
  opponent?: string,
) {
  await page.goto("/play");
  await page.getByLabel("Benchmark").selectOption(benchmark);
  if (taskId !== null) await page.getByLabel("Task id").fill(String(taskId));
  await page.getByRole("radio", { name: seat }).check();
  if (opponent) await page.getByLabel("The other side").fill(opponent);
  await page.getByRole("button", { name: "Start playing" }).click();
}

/**
 * Clicks a link that is scrolled out of view, once the scrolled page has been drawn. On a software-drawn
 * page with a sandboxed frame beside the link (the frontend seat's target page), Chromium routes the click
 * by the last frame it drew: clicked right after Playwright's own scroll, the click went into the target's
 * frame (no event reached the page, the trace's screencast still showed the page before the scroll).
 */
async function clickAfterScrolling(page: Page, link: Locator) {
  await link.scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))));
  await link.click();
}

/** A stored turn of one side (the replay's "prompt as sent" also quotes earlier turns, so match by role). */
const turnOf = (page: Page, role: "agent" | "simulator") => page.locator(`[data-testid="turn"][data-role="${role}"]`);

async function reply(page: Page, label: string | RegExp, text: string) {
  const status = page.getByTestId("seat-status");
  await expect(status).toHaveAttribute("data-state", "your-move", { timeout: 30_000 });
  const box = page.getByLabel(label);
  await box.fill(text);
  await box.press("Control+Enter");
  await expect(page.getByTestId("turn").filter({ hasText: text }).first()).toBeVisible();
}

/** Replaces the Monaco editor's text as a person pasting it would (typing would be re-indented as it goes). */
async function setEditor(page: Page, text: string) {
  const editor = page.getByTestId("code-editor").locator(".monaco-editor").first();
  await expect(editor).toBeVisible();
  await editor.click();
  await page.keyboard.press("Control+A");
  await page.evaluate((pasted) => {
    const data = new DataTransfer();
    data.setData("text/plain", pasted);
    document.activeElement!.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
  await expect(editor.locator(".view-lines")).toContainText(text.split("\n")[0]!);
}

test("a person plays the collaborator for a backend task; the episode is scored, marked human-simulated and replayable", async ({
  page,
  request,
}) => {
  const taskId = await firstTask(request, "backend");
  await startPlay(page, "backend", taskId, /^the collaborator/, `${models()}#ask-then-answer`);
  await expect(page.getByRole("heading", { name: "You are the collaborator" })).toBeVisible();
  const hidden = page.getByTestId("hidden-information");
  await expect(hidden).toContainText("Hidden tests");
  await expect(hidden.locator(".monaco-editor")).toBeVisible();

  await reply(page, /Your reply to the agent/, "Nothing weighs zero; treat it as free.");
  await reply(page, /Your reply to the agent/, "Round the price to cents.");
  const status = page.getByTestId("seat-status");
  await expect(status).toHaveAttribute("data-state", "ended", { timeout: 30_000 });
  await expect(status).toContainText("100% of the hidden tests passed");
  await page.screenshot({ path: `${shots}/play-collaborator-backend.png`, fullPage: true });

  await status.getByRole("link", { name: /Open the replay/ }).click();
  await expect(page.getByTestId("episode-reward")).toHaveText("1.000");
  await expect(page.getByTestId("transcript")).toContainText("human collaborator");
  await expect(page.getByTestId("test-results").getByText("pass", { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId("code-diff").locator(".monaco-diff-editor")).toBeVisible();
  await expect(page.getByTestId("turn-code-title")).toContainText("Code at turn 5");
  await page.screenshot({ path: `${shots}/replay-backend-diff.png`, fullPage: true });
});

test("a person plays the collaborator for a frontend task, seeing the agent's pages rendered beside the target", async ({
  page,
  request,
}) => {
  const taskId = await firstTask(request, "frontend");
  await startPlay(page, "frontend", taskId, /^the collaborator/, `${models()}#ask-then-answer`);
  await expect(page.getByRole("heading", { name: "You are the collaborator" })).toBeVisible();
  await expect(page.getByTestId("seat-status")).toHaveAttribute("data-state", "your-move", { timeout: 30_000 });
  const renders = page.getByTestId("compare-renders").locator("img");
  await expect(renders).toHaveCount(2);
  await expect(renders.first()).toHaveJSProperty("complete", true);
  expect(await renders.first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  await page.screenshot({ path: `${shots}/play-collaborator-frontend.png`, fullPage: true });

  await reply(page, /Your reply to the agent/, "Make the header a strong green band with white text.");
  await reply(page, /Your reply to the agent/, "Add a footer with the address.");
  const status = page.getByTestId("seat-status");
  await expect(status).toHaveAttribute("data-state", "ended", { timeout: 30_000 });
  await expect(status).toContainText("similarity 1.000");

  await clickAfterScrolling(page, status.getByRole("link", { name: /Open the replay/ }));
  await expect(page.getByTestId("transcript")).toContainText("human collaborator");
  await expect(page.getByTestId("turn-code").locator("img")).toBeVisible();
  await expect(page.getByRole("img", { name: "Target page" })).toBeVisible();
  await page.screenshot({ path: `${shots}/replay-frontend.png`, fullPage: true });
});

test("a person plays the agent against a model simulator; the agent's browser never receives hidden information", async ({
  page,
  request,
}) => {
  const taskId = await firstTask(request, "backend", 1);
  const recorder = await recordResponses(page);
  await startPlay(page, "backend", taskId, /^the agent/, `${models()}#simulator`);
  await expect(page.getByRole("heading", { name: "You are the agent" })).toBeVisible();
  // The editor starts from the signature the task states.
  await expect(page.getByTestId("code-editor").locator(".view-lines")).toContainText(
    "def tiered_discount(order_total, is_member):",
  );

  const question = "Should members get a bigger discount than everyone else?";
  await reply(page, /Message to the collaborator/, question);
  // Turn 0 (the task) and the simulator's answer.
  await expect(turnOf(page, "simulator")).toHaveCount(2, { timeout: 30_000 });

  // My own attempt (deliberately not the reference), tried in the browser's Python first.
  const attempt =
    "def tiered_discount(total, member):\n    rate = 0.1 if member else 0.05\n    return round(total * (1 - rate), 2)\n";
  await setEditor(page, attempt);
  // Work in progress survives a reload: the editor's code and an unsent message.
  await page.getByLabel(/Message to the collaborator/).fill("Half-written thought about members");
  await page.reload();
  await expect(page.getByTestId("editor-restored")).toBeVisible();
  await expect(page.getByTestId("code-editor").locator(".view-lines")).toContainText("rate = 0.1 if member else 0.05");
  await expect(page.getByLabel(/Message to the collaborator/)).toHaveValue("Half-written thought about members");
  await page.getByLabel(/Message to the collaborator/).fill("");
  await page.getByLabel(/Scratch lines/).fill("print(tiered_discount(200, True))");
  await page.getByRole("button", { name: "Run my code" }).click();
  await expect(page.getByTestId("scratch-output")).toHaveText("180.0", { timeout: 60_000 });
  await page.screenshot({ path: `${shots}/play-agent-backend.png`, fullPage: true });

  // The final answer is confirmed first, showing what will be sent.
  await page.getByRole("button", { name: "Submit final answer…" }).click();
  const confirm = page.getByRole("dialog", { name: "Submit this as your final answer?" });
  await expect(confirm.getByTestId("final-answer-preview")).toContainText("I WANT TO ANSWER:");
  await expect(confirm.getByTestId("final-answer-preview")).toContainText("rate = 0.1 if member else 0.05");
  await page.screenshot({ path: `${shots}/play-agent-confirm.png` });
  await confirm.getByRole("button", { name: "Keep working" }).click();
  await expect(confirm).toBeHidden();
  await page.getByRole("button", { name: "Submit final answer…" }).click();
  await confirm.getByRole("button", { name: "Submit final answer", exact: true }).click();
  const status = page.getByTestId("seat-status");
  await expect(status).toHaveAttribute("data-state", "ended", { timeout: 30_000 });
  await expect(status).toContainText("of the hidden tests passed");

  await recorder.settle();
  // The recorder saw the page and its event stream (so an empty leak list means something).
  expect(recorder.bodies.some((b) => b.includes("tiered_discount(total, member)"))).toBe(true);
  const answer = (await turnOf(page, "simulator").nth(1).innerText()).split("\n").pop()!;
  expect(recorder.bodies.some((b) => b.includes(JSON.stringify(answer).slice(1, -1)))).toBe(true);
  expect(leaks(recorder.bodies, await secretsOf(request, taskId, "backend"))).toEqual([]);
});

test("a person plays the agent on a frontend task with a live preview; no target page reaches the browser", async ({
  page,
  request,
}) => {
  const taskId = await firstTask(request, "frontend", 1);
  const recorder = await recordResponses(page);
  await startPlay(page, "frontend", taskId, /^the agent/, `${models()}#simulator`);
  await expect(page.getByRole("heading", { name: "You are the agent" })).toBeVisible();
  const preview = page.frameLocator('[data-testid="html-preview"]');
  // An empty Tailwind page to start from.
  await expect(page.getByTestId("html-preview")).toHaveAttribute(
    "srcdoc",
    /tailwind-2\.2\.19\.min\.css[\s\S]*<body>\s*<\/body>/,
  );

  await setEditor(
    page,
    '<html><head><link href="https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css" rel="stylesheet"></head><body class="bg-green-700 text-white"><h1 class="text-4xl p-8">Greenhouse Cafe</h1><img alt="shop" src="https://picsum.photos/200/100"><script>document.title = "x"</script></body></html>',
  );
  await expect(preview.getByRole("heading", { name: "Greenhouse Cafe" })).toBeVisible();
  // The placeholder is the renderer's own picture, of the size asked; the inline script the preview does not run is named.
  await expect
    .poll(() =>
      preview
        .getByRole("img", { name: "shop" })
        .evaluate((img: HTMLImageElement) => `${img.naturalWidth}x${img.naturalHeight}`),
    )
    .toBe("200x100");
  await expect(page.getByTestId("preview-notes")).toContainText("1 inline script");
  // Tailwind 2 applies inside the sandboxed preview (served by the studio, offline).
  await expect(preview.locator("body")).toHaveCSS("background-color", "rgb(4, 120, 87)");

  await reply(page, /Message to the collaborator/, "Here is a first draft of the page.");
  await expect(turnOf(page, "simulator")).toHaveCount(2, { timeout: 30_000 });
  // Beside the live preview: the page just sent, as the scorer's browser rendered it.
  await expect(page.getByTestId("sent-render").getByRole("img")).toBeVisible();
  await page.screenshot({ path: `${shots}/play-agent-frontend.png`, fullPage: true });
  await page.getByRole("button", { name: "Submit final answer…" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Submit final answer", exact: true }).click();
  const status = page.getByTestId("seat-status");
  await expect(status).toHaveAttribute("data-state", "ended", { timeout: 30_000 });
  await expect(status).toContainText("similarity");

  await recorder.settle();
  expect(recorder.bodies.some((b) => b.includes("Greenhouse Cafe"))).toBe(true);
  expect(leaks(recorder.bodies, await secretsOf(request, taskId, "frontend"))).toEqual([]);
});

test("two people in two browsers play one episode, one per seat", async ({ browser, request }) => {
  const taskId = await firstTask(request, "backend", 2);
  const collaboratorContext = await browser.newContext();
  const agentContext = await browser.newContext();
  const collaborator = await collaboratorContext.newPage();
  const agent = await agentContext.newPage();
  const recorder = await recordResponses(agent);

  await startPlay(collaborator, "backend", taskId, /with a second person/);
  // Whoever starts it is shown the other person's link, once, before taking their own seat ...
  const link = (await collaborator.getByTestId("hand-out-agent").innerText()).trim();
  expect(link).toMatch(/\/play\/\d+\/agent\?key=/);
  await collaborator.getByTestId("take-own-seat").click();
  await expect(collaborator.getByRole("heading", { name: "You are the collaborator" })).toBeVisible();
  // ... and the collaborator's seat itself carries no key to the agent's (it gave the agent's seat away).
  expect(collaborator.url()).not.toContain("key=");
  await expect(collaborator.getByTestId("agent-seat-link")).toHaveCount(0);
  expect(await collaborator.content()).not.toMatch(/\/agent\?key=/);
  await agent.goto(link);
  await expect(agent.getByRole("heading", { name: "You are the agent" })).toBeVisible();
  await expect(collaborator.getByTestId("seat-status")).toHaveAttribute("data-state", "waiting");

  await reply(agent, /Message to the collaborator/, "What should an empty list give back?");
  await expect(turnOf(collaborator, "agent").filter({ hasText: "What should an empty list give back?" })).toHaveCount(
    1,
  );
  await reply(collaborator, /Your reply to the agent/, "An empty list, with nothing curved.");
  await expect(turnOf(agent, "simulator").filter({ hasText: "An empty list, with nothing curved." })).toHaveCount(1);

  await setEditor(agent, "def curve_grades(grades):\n    return list(grades)\n");
  await agent.getByRole("button", { name: "Submit final answer…" }).click();
  await agent.getByRole("dialog").getByRole("button", { name: "Submit final answer", exact: true }).click();
  for (const page of [agent, collaborator]) {
    await expect(page.getByTestId("seat-status")).toHaveAttribute("data-state", "ended", { timeout: 30_000 });
    await expect(page.getByTestId("seat-status")).toContainText("of the hidden tests passed");
  }
  await agent.screenshot({ path: `${shots}/play-two-browsers-agent.png`, fullPage: true });
  await collaborator.screenshot({ path: `${shots}/play-two-browsers-collaborator.png`, fullPage: true });

  await recorder.settle();
  expect(recorder.bodies.some((b) => b.includes("An empty list, with nothing curved."))).toBe(true);
  expect(leaks(recorder.bodies, await secretsOf(request, taskId, "backend"))).toEqual([]);
  await collaboratorContext.close();
  await agentContext.close();
});

test("a move out of turn is refused with the reason", async ({ request }) => {
  const taskId = await firstTask(request, "backend", 3);
  const created = await request.post("/api/play", { data: { benchmark: "backend", taskId, seat: "both" } });
  expect(created.status()).toBe(201);
  const { episodeId } = (await created.json()) as { episodeId: number };
  // The agent opens; the collaborator may not speak first (before the episode starts, or after).
  const speakFirst = () =>
    request.post(`/api/episodes/${episodeId}/move`, { data: { role: "simulator", text: "hello" } });
  await expect
    .poll(async () => ((await (await speakFirst()).json()) as { error: string }).error)
    .toContain("not the simulator's move");
  expect((await speakFirst()).status()).toBe(409);
  const empty = await request.post(`/api/episodes/${episodeId}/move`, { data: { role: "agent", text: "" } });
  expect(empty.status()).toBe(400);
  // A move longer than the run's limit is refused with the limit named.
  const huge = await request.post(`/api/episodes/${episodeId}/move`, {
    data: { role: "agent", text: "x".repeat(100_000) },
  });
  expect(huge.status()).toBe(413);
  expect(((await huge.json()) as { error: string }).error).toContain("at most 20,000 characters");
  await expect(
    await request.post(`/api/episodes/${episodeId}/move`, { data: { role: "agent", text: "Hi, what do you need?" } }),
  ).toBeOK();
});

/** A port nothing listens on: every attempt to reach it is refused at once. */
function freePort(): Promise<number> {
  return new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

test("an unreachable model server's failure names the server and the error, with a retry", async ({
  page,
  request,
}) => {
  const taskId = await firstTask(request, "backend", 4);
  const port = await freePort();
  const server = `http://127.0.0.1:${port}/v1#nobody`;
  await startPlay(page, "backend", taskId, /^the collaborator/, server);
  const status = page.getByTestId("seat-status");
  await expect(status).toHaveAttribute("data-state", "ended", { timeout: 45_000 });
  await expect(status).toContainText(`The episode failed: the agent's model server ${server} was down for`);
  await expect(status).toContainText("ECONNREFUSED");
  await expect(status).toContainText(/gave up after waiting \d+(\.\d)? s \(\d+ attempts\) on \/chat\/completions/);
  await expect(status.getByRole("button", { name: "Retry" })).toBeVisible();
  await page.screenshot({ path: `${shots}/play-server-failure.png` });
  // The session is listed under Sessions, and its run's page says why its episode failed.
  await page.goto("/sessions");
  const row = page.getByTestId("sessions-table").getByRole("row").nth(1);
  await expect(row).toContainText("failed");
  await expect(row).toContainText("nobody");
  await row.getByRole("link", { name: "details" }).click();
  await expect(page.getByTestId("episodes-table")).toContainText(`failed: the agent's model server ${server}`);
});

test("while the other side's model server is down the seat says what it waits for, and play goes on when it answers", async ({
  page,
  request,
}) => {
  const taskId = await firstTask(request, "backend", 5);
  const port = await freePort();
  // The scripted agent answers 2.5 s late, so the seat is seen waiting for it once the server is back.
  await startPlay(page, "backend", taskId, /^the collaborator/, `http://127.0.0.1:${port}/v1#slow:2500`);
  const status = page.getByTestId("seat-status");
  // Without reloading the page, well within the give-up time (20 s under test).
  await expect(status).toContainText(
    `waiting for the model server (http://127.0.0.1:${port}/v1: connect ECONNREFUSED`,
    { timeout: 10_000 },
  );
  const models = await startScriptedServer({ tasks: loadScriptedTasks(path.join("samples", "backend.jsonl")), port });
  try {
    await expect(status).toContainText("The episode goes on by itself when the server answers.");
    await expect(status).toHaveAttribute("data-state", "waiting");
    await page.screenshot({ path: `${shots}/play-server-waiting.png` });
    await expect(turnOf(page, "agent").first()).toBeVisible({ timeout: 30_000 });
    await reply(page, /Your reply to the agent/, "Any order is fine.");
    // The server answered: the line no longer says it is down.
    await expect(status).toHaveText("Waiting for the agent model…");
  } finally {
    await models.close();
  }
});
