import { expect, test, type Page } from "./test";

// A researcher's day: every similarity names the embedder that made it (run page, Leaderboard,
// Compare), and the training-data panel walks a best-of-2 run through SWEET-RL's steps, each step's
// counts surviving a reload, its errors in words and its files offered only when they hold something.

const shots = "e2e/artifacts";
const models = () => process.env.COLBENCH_E2E_MODELS!;

async function runId(page: Page, name: string): Promise<number> {
  await page.goto("/runs");
  const href = await page.getByRole("link", { name, exact: true }).getAttribute("href");
  return Number(/\/runs\/(\d+)/.exec(href!)![1]);
}

async function openRun(page: Page, name: string) {
  await page.goto("/runs");
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

/** Fails when the page is wider than its window (content that neither wraps nor scrolls in its own box). */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll, `page ${page.url()} is ${scroll}px wide in a ${width}px window`).toBeLessThanOrEqual(width);
}

test("a frontend run scored offline names its embedder on the run page, the Leaderboard and Compare", async ({
  page,
}) => {
  await openRun(page, "e2e-frontend");
  const weightFree = "default-v2 · weight-free, not comparable with the paper";
  await expect(page.getByTestId("run-embedder")).toHaveText(weightFree);
  await expect(page.getByTestId("run-profile")).toHaveText("paper · chromium · generated placeholders");
  await expect(page.getByTestId("figure-embedder").first()).toHaveText(`by ${weightFree}`);
  const spec = page.getByTestId("run-spec");
  await expect(spec).toContainText("ask-then-answer at http://");
  await expect(spec).toContainText("best-of-1");
  // global-setup made it with --limit 1: the limit is part of what was run, with what it resolved to.
  await expect(page.getByTestId("run-limit")).toHaveText(", limit 1");
  await expect(page.getByTestId("run-task-count")).toHaveText("1 task");
  for (const label of ["Started", "Ended", "Duration"]) await expect(spec).toContainText(label);
  await expect(spec).toContainText(
    "chosen because: the weight-free default-v2, because CLIP ViT-B/32 can be neither found nor fetched",
  );
  const prompt = await page.request.get((await page.getByTestId("prompt-agent").getAttribute("href"))!);
  expect(prompt.status()).toBe(200);
  expect((await prompt.text()).length).toBeGreaterThan(100);
  await page.screenshot({ path: `${shots}/run-provenance-1280.png`, fullPage: true });

  await page.goto("/leaderboard");
  const row = page.getByTestId("leaderboard-frontend").getByRole("row", { name: /e2e-frontend/ });
  await expect(row.getByTestId("embedder")).toHaveText(weightFree);
  await page.getByRole("navigation", { name: "Filter by embedder" }).getByRole("link", { name: "default-v2" }).click();
  await expect(page).toHaveURL(/embedder=default-v2/);
  await expect(page.getByTestId("leaderboard-frontend").getByTestId("embedder").first()).toHaveText(weightFree);
  await page.screenshot({ path: `${shots}/leaderboard-embedder-1280.png`, fullPage: true });

  const [a, b] = [await runId(page, "e2e-frontend"), await runId(page, "older-frontend")];
  await page.goto(`/compare?a=${a}&b=${b}`);
  await expect(page.getByTestId("compare-provenance")).toContainText(`A: e2e-frontend — similarity by ${weightFree}`);
  await expect(page.getByTestId("compare-provenance")).toContainText(`B: older-frontend — similarity by ${weightFree}`);
  // Both offline: one embedder, so only the render profile keeps them apart.
  await expect(page.getByTestId("embedder-mismatch")).toHaveCount(0);
  await expect(page.getByTestId("profile-mismatch")).toBeVisible();
  // What differed, from the two stored configs: the profile (global-setup's --profile), nothing of the players or tasks.
  const differed = page.getByTestId("config-diff-differ").getByTestId("config-diff-row");
  await expect(differed.and(page.locator('[data-key="render.name"]'))).toContainText("paper");
  await expect(differed.and(page.locator('[data-key="render.name"]'))).toContainText("studio-1280");
  for (const key of ["agent", "simulator", "limit", "sampling.temperature"])
    await expect(page.locator(`[data-testid=config-diff-row][data-key="${key}"]`)).toHaveAttribute(
      "data-differs",
      "no",
    );
  await expect(page.getByTestId("config-diff-summary")).toContainText("render.name");

  // 390 px: the navigation folds into a menu, tables scroll in their card, nothing widens the page.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of [`/runs/${a}`, "/leaderboard", `/compare?a=${a}&b=${b}`, "/runs", "/tasks", "/episodes/1"]) {
    await page.goto(path);
    await expectNoSidewaysScroll(page);
  }
  await page.goto(`/runs/${a}`);
  const menu = page.getByTestId("nav-menu");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Leaderboard" })).toBeHidden();
  await menu.locator("summary").click();
  await expect(menu.getByRole("link", { name: "Leaderboard" })).toBeVisible();
  await page.screenshot({ path: `${shots}/run-provenance-390.png`, fullPage: true });
  await menu.getByRole("link", { name: "Leaderboard" }).click();
  await expect(page).toHaveURL(/\/leaderboard$/);
  await expect(page.getByRole("heading", { level: 1, name: "Leaderboard" })).toBeVisible();
  // The menu closes once the page changes (the layout, and so the menu, stays).
  await expect(menu.getByRole("link", { name: "Leaderboard" })).toBeHidden();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${shots}/leaderboard-390.png`, fullPage: true });
  await page.goto("/episodes/1");
  await page.screenshot({ path: `${shots}/episode-390.png`, fullPage: true });
});

test("the training-data panel walks a best-of-2 run from pairs to turn pairs, its counts surviving reloads", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const created = await request.post("/api/runs", {
    data: {
      benchmark: "backend",
      tasks: "ids=1-3",
      bestOf: 2,
      agent: `${models()}#coin`,
      simulator: `${models()}#simulator`,
      name: "coin-best-of-2",
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/api/runs/${id}/episodes`)).json()) as { items: Array<{ status: string }> }
        ).items.filter((e) => e.status === "done").length,
      { timeout: 120_000 },
    )
    .toBe(6);

  await page.goto(`/runs/${id}`);
  const panel = page.getByTestId("pipeline");
  const step = (name: string) => panel.getByTestId(`step-${name}`);
  const exported = (format: string) => panel.getByTestId(`export-${format}`);
  const status = panel.getByTestId("pipeline-status");
  // Nothing made yet: pairs come first; the later steps say what they wait for; the pair files are empty and not offered.
  await expect(panel.getByTestId("pipeline-next")).toHaveText("Next: step 1, trajectory pairs.");
  await expect(step("pairs")).toHaveAttribute("data-state", "ready");
  await expect(step("pairs").getByTestId("step-input")).toHaveText(
    "Works on: 6 finished episodes; 3 tasks with two or more finished samples",
  );
  await expect(step("rank").getByTestId("step-why")).toHaveText(
    "no candidates to rank: sample candidates first (step 2)",
  );
  await expect(step("rank").getByRole("button", { name: "Rank candidates" })).toBeDisabled();
  await expect(exported("openrlhf-critic").getByRole("link")).toHaveCount(0);
  await expect(exported("openrlhf-critic")).toContainText("empty: make trajectory pairs first (step 1)");
  await expect(exported("official").getByRole("link", { name: "official" })).toBeVisible();
  await page.screenshot({ path: `${shots}/pipeline-start-1280.png`, fullPage: true });

  await step("pairs").getByRole("button", { name: "Make trajectory pairs" }).click();
  await expect(status).toContainText("Trajectory pairs: finished", { timeout: 30_000 });
  await expect(step("pairs")).toHaveAttribute("data-state", "done");
  await expect(step("pairs").getByTestId("step-made")).toHaveText("Made: 3 trajectory pairs");
  await expect(panel.getByTestId("pipeline-next")).toHaveText("Next: step 2, candidates.");
  await expect(exported("openrlhf-critic").getByRole("link", { name: "openrlhf-critic" })).toBeVisible();

  // A policy server that returns no log-probs: the step fails in words.
  await step("candidates").getByLabel("Policy server").fill(`${models()}#no-logprobs`);
  await step("candidates").getByLabel("Candidates per turn").fill("2");
  await step("candidates").getByRole("button", { name: "Sample candidates" }).click();
  await expect(status).toHaveAttribute("data-state", "crashed", { timeout: 90_000 });
  await expect(status).toContainText("Latest: Candidates: did not finish");
  await expect(panel.getByTestId("pipeline-error")).toContainText(
    "this server returns no log-probs for sampled text; candidates need a server that does, e.g. vLLM",
  );
  await expect(step("candidates")).toHaveAttribute("data-state", "ready");

  // The scripted server's log-probs: candidates, then the critic's ranking, then turn pairs.
  await step("candidates").getByLabel("Policy server").fill(`${models()}#logprobs`);
  await step("candidates").getByRole("button", { name: "Sample candidates" }).click();
  await expect(status).toContainText("Candidates: finished", { timeout: 90_000 });
  await expect(step("candidates")).toHaveAttribute("data-state", "done");
  await expect(step("candidates").getByTestId("step-made")).toHaveText("Made: 54 candidates for 18 of 18 agent turns");
  await step("rank").getByLabel("Critic server").fill(`${models()}#ask-then-answer`);
  await step("rank").getByRole("button", { name: "Rank candidates" }).click();
  await expect(status).toContainText("Ranking: finished", { timeout: 90_000 });
  await expect(step("rank").getByTestId("step-made")).toHaveText("Made: 54 of 54 candidates scored by a critic");
  await expect(exported("trl-dpo")).toContainText("empty: draw turn pairs first (step 4)");
  await step("turn-pairs").getByRole("button", { name: "Draw turn pairs" }).click();
  await expect(status).toContainText("Turn pairs: finished", { timeout: 30_000 });

  // After a reload every step still shows what it made (counted from the database, not the latest job).
  await page.reload();
  await expect(step("pairs").getByTestId("step-made")).toHaveText("Made: 3 trajectory pairs");
  await expect(step("candidates").getByTestId("step-made")).toHaveText("Made: 54 candidates for 18 of 18 agent turns");
  await expect(step("rank").getByTestId("step-made")).toHaveText("Made: 54 of 54 candidates scored by a critic");
  const turnPairs = Number(
    (await step("turn-pairs").getByTestId("step-made").textContent())!.match(/Made: (\d+) turn pairs/)![1],
  );
  expect(turnPairs).toBeGreaterThan(0);
  for (const s of ["pairs", "candidates", "rank", "turn-pairs"])
    await expect(step(s)).toHaveAttribute("data-state", "done");
  // Each step says what made its output, and its form starts from that (not from the defaults); the
  // start on the server without log-probs stored nothing and is not named.
  const madeBy = (name: string) => step(name).getByTestId("step-lineage");
  await expect(madeBy("candidates")).toContainText(`policy ${models()}#logprobs · template llama3 · n 2 per turn`);
  await expect(madeBy("candidates")).not.toContainText("no-logprobs");
  await expect(madeBy("rank")).toContainText(
    `critic ${models()}#ask-then-answer · template llama3 · with the final answer`,
  );
  await expect(madeBy("turn-pairs")).toContainText("8 pairs per turn · seed 42 · pool samples · order task");
  await expect(madeBy("pairs")).toContainText("rule backend-best-of-k · without the final answer");
  await expect(step("candidates").getByLabel("Policy server")).toHaveValue(`${models()}#logprobs`);
  await expect(step("candidates").getByLabel("Candidates per turn")).toHaveValue("2");
  await expect(step("rank").getByLabel("Critic server")).toHaveValue(`${models()}#ask-then-answer`);
  await expect(step("turn-pairs").getByLabel("Pairs per turn")).toHaveValue("8");
  await expect(step("turn-pairs").getByLabel("Seed")).toHaveValue("42");
  await expect(panel.getByTestId("pipeline-next")).toHaveText(
    "Every step is done: the training files below are ready.",
  );
  for (const format of [
    "official",
    "official-best-of-k",
    "openrlhf-critic",
    "published-frontend-critic",
    "openrlhf-policy",
    "trl-dpo",
  ]) {
    const link = exported(format).getByRole("link", { name: format, exact: true });
    await expect(link).toBeVisible();
    const lines = Number(await exported(format).getAttribute("data-lines"));
    const response = await request.get((await link.getAttribute("href"))!);
    expect((await response.text()).trim().split("\n"), format).toHaveLength(lines);
    // A training file names the step records behind its lines.
    const lineage = response.headers()["x-colbench-lineage"];
    if (format === "trl-dpo")
      expect((JSON.parse(lineage!) as { steps: Array<{ step: string }> }).steps.map((x) => x.step)).toEqual([
        "candidates",
        "rank",
        "turn-pairs",
      ]);
    if (format === "official") expect(lineage).toBeUndefined();
  }
  expect(Number(await exported("trl-dpo").getAttribute("data-lines"))).toBe(turnPairs);
  await page.screenshot({ path: `${shots}/pipeline-done-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${shots}/pipeline-done-390.png`, fullPage: true });
});

test("the New run form names a mistyped split in its own words, with the splits that exist", async ({ request }) => {
  const refused = await request.post("/api/runs", {
    data: {
      benchmark: "backend",
      tasks: "split=tset",
      agent: `${models()}#ask-then-answer`,
      simulator: `${models()}#simulator`,
    },
  });
  expect(refused.status()).toBe(400);
  const { error } = (await refused.json()) as { error: string };
  expect(error).toMatch(/^Tasks "split=tset": no backend task has split "tset"; the splits that exist: \w+ \(\d+\)/);
  expect(error).not.toContain("--tasks");
});
