import { expect, test } from "@playwright/test";

const shots = "e2e/artifacts";

test("the replay of a ranked run shows each agent turn's candidates, best advantage first, and the advantage chart", async ({ page }) => {
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
  const advantages = (await items.evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-advantage")))));
  expect(advantages.every(Number.isFinite)).toBe(true);
  expect([...advantages].sort((a, b) => b - a)).toEqual(advantages);
  await expect(candidates).toContainText("the turn's own output");
  await turn.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/replay-candidates.png`, fullPage: true });
});
