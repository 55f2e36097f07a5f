import { expect, test } from "./test";

// Frontend runs scored under different render profiles (global-setup: e2e-frontend under paper,
// older-frontend under studio-1280) are never compared silently.

const shots = "e2e/artifacts";

test("Compare says when two frontend runs were scored under different render profiles, and computes no win rate", async ({
  page,
}) => {
  await page.goto("/compare");
  await page.getByLabel("Run A").selectOption({ label: "e2e-frontend (frontend, paper · chromium, default-v2)" });
  await page
    .getByLabel("Run B")
    .selectOption({ label: "older-frontend (frontend, studio-1280 · chromium, default-v2)" });
  await page.getByRole("button", { name: "Compare" }).click();
  const alert = page.getByTestId("profile-mismatch");
  await expect(alert).toContainText("Different render profiles");
  await expect(alert).toContainText("e2e-frontend was scored under paper · chromium · generated placeholders");
  await expect(alert).toContainText("older-frontend under studio-1280 · chromium · generated placeholders");
  await expect(alert).toContainText("colbench rescore");
  await expect(page.getByTestId("compare-summary")).toHaveText(
    "Not compared: the two runs were scored under different render profiles.",
  );
  await expect(page.getByRole("table", { name: "Tasks compared" }).getByRole("row")).toHaveCount(2);
  await page.screenshot({ path: `${shots}/compare-profiles.png`, fullPage: true });

  // One profile: compared as before.
  await page.getByLabel("Run B").selectOption({ label: "e2e-frontend (frontend, paper · chromium, default-v2)" });
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page.getByTestId("compare-summary")).toContainText("win rate");
  await expect(page.getByTestId("profile-mismatch")).toHaveCount(0);
});

test("the Leaderboard names each frontend run's render profile and refuses a win rate across profiles", async ({
  page,
}) => {
  await page.goto("/leaderboard");
  await expect(page.getByTestId("leaderboard-profiles")).toContainText("different render profiles");
  const frontend = page.getByTestId("leaderboard-frontend");
  await expect(frontend.getByRole("row", { name: /older-frontend/ }).getByTestId("render-profile")).toHaveText(
    "studio-1280 · chromium · generated placeholders",
  );
  await page.getByLabel("Baseline run").selectOption({ label: "e2e-frontend" });
  await page.getByRole("button", { name: "Set baseline" }).click();
  await expect(frontend.getByRole("row", { name: /older-frontend/ })).toContainText(
    "not comparable: other render profile",
  );
  await page.screenshot({ path: `${shots}/leaderboard-profiles.png`, fullPage: true });
});
