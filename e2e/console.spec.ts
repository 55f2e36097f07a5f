import { expect, test, type Page } from "./test";

// Every page and seat of the studio, entered and left the way a person does (typed URLs and
// in-page links): the browser's console must stay free of errors and uncaught exceptions.

function watch(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${page.url()}: console: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`${page.url()}: uncaught: ${error.message}`));
  return errors;
}

test("no page or seat logs a console error on entering or leaving it", async ({ page, request }) => {
  test.setTimeout(180_000);
  const errors = watch(page);
  // The watch hears what a page logs and throws (else an empty list would prove nothing).
  await page.goto("/");
  await page.evaluate(() => {
    console.error("control error");
    setTimeout(() => {
      throw new Error("control exception");
    });
  });
  await expect.poll(() => errors.length).toBe(2);
  errors.length = 0;
  const tasks = async (benchmark: string) =>
    ((await (await request.get(`/api/tasks?benchmark=${benchmark}`)).json()) as { items: Array<{ id: number }> }).items;
  const [backendTask] = await tasks("backend");
  const [frontendTask] = await tasks("frontend");
  const play = await request.post("/api/play", {
    data: { benchmark: "backend", taskId: backendTask!.id, seat: "both" },
  });
  expect(play.status()).toBe(201);
  const seats = (await play.json()) as { agentUrl: string; simulatorUrl: string };

  // The frontend run's first episode (made by the e2e set-up).
  await page.goto("/runs");
  await page.getByRole("link", { name: "e2e-frontend" }).click();
  const frontendEpisode = (await page.getByTestId("episodes-table").getByRole("link").first().getAttribute("href"))!;

  const pages = [
    "/",
    "/tasks",
    `/tasks/${backendTask!.id}`,
    `/tasks/${frontendTask!.id}`,
    "/runs",
    "/runs/new",
    "/runs/1",
    "/episodes/1",
    frontendEpisode,
    "/leaderboard",
    "/compare?a=1&b=2",
    "/play",
    "/sessions",
    "/annotate",
    "/admin/users",
    seats.simulatorUrl,
    seats.agentUrl,
  ];
  for (const path of pages) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await page.waitForLoadState("networkidle");
  }
  // Unknown addresses answer the studio's 404 page, without a hydration error either. Chromium
  // logs the document's own 404 status as a console error: that one line per page is expected.
  for (const path of [
    "/episodes/99999",
    "/play/99999/agent",
    "/play/99999/collaborator",
    "/runs/99999",
    "/tasks/99999",
    "/no/such/page",
  ]) {
    const before = errors.length;
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByTestId("not-found")).toBeVisible();
    await page.waitForLoadState("networkidle");
    const own = errors
      .splice(before)
      .filter(
        (e) =>
          e !==
          `${page.url()}: console: Failed to load resource: the server responded with a status of 404 (Not Found)`,
      );
    errors.push(...own);
  }
  // Leaving a replay (a diff editor) and a seat (an editor) by the studio's own links.
  for (const path of ["/episodes/1", frontendEpisode, seats.simulatorUrl]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Runs" }).click();
    await expect(page).toHaveURL(/\/runs$/);
    await page.waitForLoadState("networkidle");
  }
  expect(errors).toEqual([]);
});
