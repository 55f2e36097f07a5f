import { expect, test } from "./test";

const shots = "e2e/artifacts";

test("the replay of a ranked run shows each agent turn's candidates, best advantage first, and the advantage chart", async ({
  page,
}) => {
  await page.goto("/runs");
  await page.getByRole("link", { name: "weak-backend" }).click();
  await page.getByTestId("episodes-table").getByRole("link").first().click();
  // The turns' own outputs were ranked alongside their candidates: the chart shows their advantages.
  await expect(page.getByTestId("advantage-chart")).toBeVisible();
  const turn = page.locator('[data-testid="turn"][data-role="agent"]').first();
  const candidates = turn.getByTestId("candidates");
  await candidates.locator("summary").click();
  const items = candidates.getByTestId("candidate");
  await expect(items).toHaveCount(4);
  const advantages = await items.evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-advantage"))));
  expect(advantages.every(Number.isFinite)).toBe(true);
  expect([...advantages].sort((a, b) => b - a)).toEqual(advantages);
  await expect(candidates).toContainText("the turn's own output");
  await turn.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/replay-candidates.png`, fullPage: true });
});

test("the run page runs SWEET-RL steps with live progress and offers the training files", async ({ page, request }) => {
  const models = process.env.COLBENCH_E2E_MODELS!;
  await page.goto("/runs");
  await page.getByRole("link", { name: "weak-backend" }).click();
  const panel = page.getByTestId("pipeline");
  const status = panel.getByTestId("pipeline-status");
  // The candidates exist already (global setup sampled them): the step finds nothing left to do.
  await panel.getByLabel("Policy server").fill(`${models}#ask-then-answer`);
  await panel.getByLabel("Candidates per turn").fill("3");
  await panel.getByRole("button", { name: "Sample candidates" }).click();
  await expect(status).toHaveAttribute("data-state", "finished", { timeout: 30_000 });
  await expect(status).toContainText("Candidates: finished");
  await expect(status).toContainText("sampled 0");
  await panel.getByRole("button", { name: "Draw turn pairs" }).click();
  await expect(status).toContainText("Turn pairs: finished", { timeout: 30_000 });
  // The published script's 8 pairs per turn, as the form starts: 30 turns with 3 samples each.
  await expect(status).toContainText("pairs 240");
  await page.screenshot({ path: `${shots}/run-pipeline.png`, fullPage: true });
  const href = await panel.getByRole("link", { name: "openrlhf-policy" }).getAttribute("href");
  const file = await (await request.get(href!)).text();
  const lines = file
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { chosen: string; rejected: string });
  expect(lines).toHaveLength(240);
  expect(lines[0]!.chosen.endsWith("<|eot_id|>")).toBe(true);
});
