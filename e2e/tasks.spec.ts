import { expect, test } from "./test";

const shots = "e2e/artifacts";

test("a person browses, filters and opens tasks, and reveals hidden information", async ({ page, request }) => {
  const health = (await (await request.get("/api/health")).json()) as {
    ok: boolean;
    database: { kind: string };
    tasks: Record<string, unknown> & { backend: number; frontend: number };
  };
  expect(health.ok).toBe(true);
  expect(health.database.kind).toBe("pglite");
  expect(health.tasks.backend).toBeGreaterThanOrEqual(12);
  expect(health.tasks.frontend).toBeGreaterThanOrEqual(6);

  await page.goto("/");
  await page.getByRole("link", { name: "Tasks", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Tasks", exact: true })).toBeVisible();
  const all = Number((await page.getByTestId("task-total").textContent())?.split(" ")[0]);
  // Every registered benchmark's tasks (the health answer's per-benchmark counts; bySplit aside).
  const perBenchmark = Object.values(health.tasks).filter((n): n is number => typeof n === "number");
  expect(all).toBe(perBenchmark.reduce((a, b) => a + b, 0));
  await page.screenshot({ path: `${shots}/tasks.png`, fullPage: true });

  // Filter with the keyboard: benchmark, then a word from a description.
  await page.getByLabel("Benchmark").selectOption("backend");
  await page.getByLabel("Search descriptions").fill("shipping");
  await page.getByLabel("Search descriptions").press("Enter");
  await expect(page).toHaveURL(/benchmark=backend/);
  await expect(page).toHaveURL(/q=shipping/);
  const rows = page.getByTestId("task-list").getByRole("listitem");
  await expect(rows).not.toHaveCount(0);
  const filtered = await rows.count();
  expect(filtered).toBeLessThan(health.tasks.backend);
  for (const text of await rows.allTextContents()) {
    expect(text.toLowerCase()).toContain("shipping");
    expect(text).toContain("backend");
  }
  await page.screenshot({ path: `${shots}/tasks-filtered.png`, fullPage: true });

  await rows.first().getByRole("link").click();
  await expect(page.getByRole("heading", { name: /Task #\d+/ })).toBeVisible();
  await expect(page.getByTestId("problem-description")).toContainText(/shipping/i);
  // Hidden information is not in the page until asked for.
  expect(await page.content()).not.toContain("def shipping_cost(weight_kg, distance_km, express):");
  await page.getByRole("button", { name: "Reveal hidden information" }).click();
  const hidden = page.getByTestId("hidden-information");
  await expect(hidden).toContainText("def ");
  await expect(hidden.getByRole("row")).toHaveCount(10);
  await page.screenshot({ path: `${shots}/task-backend-revealed.png`, fullPage: true });
});

test("a frontend task shows its target page, styled, in a sandboxed frame", async ({ page }) => {
  await page.goto("/tasks?benchmark=frontend");
  await page.getByTestId("task-list").getByRole("link").first().click();
  await page.getByRole("button", { name: "Reveal hidden information" }).click();
  const frame = page.frameLocator('iframe[title="Target page"]');
  await expect(frame.locator("body")).toBeVisible();
  await expect(page.locator('iframe[title="Target page"]')).toHaveAttribute("sandbox", "");
  // Tailwind 2.2.19 is served locally, so utility classes take effect offline.
  const padded = frame.locator(".p-4, .p-6, .p-8, .px-4, .px-6, .py-4, .py-6").first();
  await expect(padded).toBeVisible();
  // The stylesheet may still be on its way when the element is laid out (an unloaded sheet does not hold the
  // DOM back from script), so wait for the padding to arrive rather than read it once.
  await expect.poll(() => padded.evaluate((el) => getComputedStyle(el).padding), { timeout: 15_000 }).not.toBe("0px");
  // Beside the live preview, the target as the scorer rendered it (the e2e frontend run scored this task).
  const scored = page.getByTestId("scored-render");
  await expect(scored).toBeVisible();
  expect(await scored.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(1000);
  await page.screenshot({ path: `${shots}/task-frontend-revealed.png`, fullPage: true });
});

test("every section of the shell answers and says what to do when empty", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Annotate", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Annotate", exact: true })).toBeVisible();
  await expect(page.locator("main")).toContainText(/yet/);
  await page.getByRole("link", { name: "Play", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Play", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Start playing" })).toBeVisible();
  const missing = await page.goto("/tasks/999999");
  expect(missing?.status()).toBe(404);
});
