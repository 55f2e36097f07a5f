import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { leaks, recordResponses, secretPieces } from "./response-recorder";
import { startStudio, type RunningStudio } from "./studio";

// A shared studio (users defined): who may see what, tried from outside by typing URLs, for each
// role and for a seat link; then requests an attacker's page or script would send. The main e2e
// studio (127.0.0.1, no users) is the local mode: it opens with no sign-in.

const root = path.resolve(import.meta.dirname, "..");
const PORT = Number(process.env.COLBENCH_E2E_PORT ?? 3210) + 2;
const shots = "e2e/artifacts";

let studio: RunningStudio;
const links: Record<string, string> = {};
const cookies: Record<string, string> = {};
let secrets: string[] = [];
let play: { episodeId: number; runId: number; agentUrl: string; simulatorUrl: string };
let frontendTask = 0;
/** Labelling queues on task 1: one the annotator labels blind, one that shows them hidden information, one they are not in. */
const queues = { blind: 0, open: 0, elsewhere: 0 };

function colbench(dataDir: string, args: string[]): string {
  const result = spawnSync(process.execPath, [path.join(root, "cli", "bin.mjs"), ...args], { cwd: root, env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "" }, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`colbench ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

/** A request as a script would send it, with a cookie jar of one cookie; SSE streams are read for a moment. */
async function get(url: string, cookie?: string): Promise<{ status: number; body: string }> {
  const controller = new AbortController();
  const response = await fetch(`${studio.url}${url}`, { headers: cookie ? { cookie } : {}, redirect: "manual", signal: controller.signal });
  let body = "";
  if (response.headers.get("content-type")?.includes("text/event-stream")) {
    const reader = response.body!.getReader();
    const timer = setTimeout(() => controller.abort(), 1_500);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        body += new TextDecoder().decode(value);
      }
    } catch {
      // aborted: what arrived is enough
    }
    clearTimeout(timer);
  } else {
    body = await response.text();
  }
  return { status: response.status, body };
}

async function signIn(link: string): Promise<string> {
  const response = await fetch(link.replace(/^http:\/\/[^/]+/, studio.url), { redirect: "manual" });
  expect(response.status).toBe(200);
  const cookie = response.headers.get("set-cookie")!;
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Strict/i);
  return cookie.split(";")[0]!;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-access-"));
  colbench(dataDir, ["db", "seed"]);
  for (const [name, role] of [["ann", "annotator"], ["res", "researcher"], ["boss", "admin"]] as const) {
    links[name] = /sign-in link: (\S+)/.exec(colbench(dataDir, ["users", "add", name, "--role", role, "--url", `http://127.0.0.1:${PORT}`]))![1]!;
  }
  // Two runs on task 1 whose scored episodes (per-test results) hold its hidden tests, and queues of their pair.
  const models = process.env.COLBENCH_E2E_MODELS!;
  for (const name of ["asks-a", "asks-b"]) colbench(dataDir, ["run", "--benchmark", "backend", "--tasks", "ids=1", "--name", name, "--agent", `${models}#never-answer`, "--simulator", `${models}#simulator`]);
  for (const [name, extra] of [["blind", ["--members", "ann"]], ["open", ["--members", "ann", "--shows-hidden"]], ["elsewhere", ["--members", "res"]]] as const) {
    queues[name] = (JSON.parse(colbench(dataDir, ["queues", "create", name, "--runs", "asks-a,asks-b", "--overlap", "2", ...extra])) as { id: number }).id;
  }
  studio = await startStudio(PORT, dataDir);
  for (const name of Object.keys(links)) cookies[name] = await signIn(links[name]!);
  // The researcher starts an episode with people in both seats, and reads what is hidden.
  const created = await fetch(`${studio.url}/api/play`, {
    method: "POST",
    headers: { cookie: cookies.res!, "content-type": "application/json" },
    body: JSON.stringify({ benchmark: "backend", taskId: 1, seat: "both" }),
  });
  expect(created.status).toBe(201);
  play = (await created.json()) as typeof play;
  expect(play.agentUrl).toMatch(/\?key=/);
  const hidden = JSON.parse((await get("/api/tasks/1/hidden", cookies.res)).body) as { groundTruth: string; testCases: Array<{ expression: string }> };
  const tasks = JSON.parse((await get("/api/tasks?benchmark=frontend", cookies.res)).body) as { items: Array<{ id: number }> };
  frontendTask = tasks.items[0]!.id;
  const target = JSON.parse((await get(`/api/tasks/${frontendTask}/hidden`, cookies.res)).body) as { groundTruth: string };
  secrets = [
    ...secretPieces(hidden.groundTruth.split("\n").slice(1).join("\n")),
    ...hidden.testCases.map((t) => t.expression),
    ...secretPieces(target.groundTruth, 30).filter((l) => !/tailwindcss|<!doctype|<meta/i.test(l)),
  ];
  expect(secrets.length).toBeGreaterThan(5);
});

test.afterAll(async () => {
  const code = await studio?.stop();
  if (studio) fs.rmSync(studio.dataDir, { recursive: true, force: true });
  expect(code).toBe(0);
});

/** Every page and GET route a person could type, with the ids of this studio's data. */
function everyUrl(): string[] {
  const { episodeId: ep, runId: run } = play;
  return [
    "/", "/tasks", "/tasks/1", `/tasks/${frontendTask}`, "/runs", `/runs/${run}`, `/episodes/${ep}`, "/leaderboard", `/compare?a=${run}&b=${run}`,
    "/play", `/play/${ep}/agent`, `/play/${ep}/collaborator`, "/annotate", "/admin/users", "/runs/new",
    "/api/tasks", "/api/tasks/1/hidden", `/api/tasks/${frontendTask}/hidden`, `/api/tasks/${frontendTask}/preview`, `/api/runs/${run}/episodes`,
    `/api/episodes/${ep}/events`, `/api/episodes/${ep}/events?seat=viewer`, `/api/episodes/${ep}/events?seat=simulator`, `/api/episodes/${ep}/events?seat=agent`,
    `/api/runs/${run}/events`, "/api/events",
    ...Object.values(queues).flatMap((q) => [`/annotate/${q}`, `/annotate/${q}/agreement`, `/api/queues/${q}/agreement`, `/api/queues/${q}/export?format=raw`, `/api/queues/${q}/export?format=openrlhf-critic`]),
  ];
}

/** The labelling desk's requests (POST), in the order a page sends them, for one queue. */
async function deskCrawl(queue: number, cookie?: string): Promise<Array<{ url: string; status: number; body: string }>> {
  const send = async (action: string, body: unknown) => {
    const response = await fetch(`${studio.url}/api/queues/${queue}/${action}`, { method: "POST", headers: { ...(cookie ? { cookie } : {}), "content-type": "application/json" }, body: JSON.stringify(body) });
    return { url: `POST /api/queues/${queue}/${action}`, status: response.status, body: await response.text() };
  };
  const next = await send("next", { holding: [] });
  const itemId = (JSON.parse(next.body) as { pair?: { itemId: number } }).pair?.itemId ?? 1;
  const labelled = await send("labels", { itemId, side: "left", ms: 1000, holding: [] });
  const undone = await send("undo", {});
  return [next, labelled, undone, await send("skip", { itemId, holding: [] }), await send("renew", {})];
}

test("an annotator and an agent seat link get no hidden information from any URL; a researcher does", async ({ browser }) => {
  test.setTimeout(120_000);
  // The control: the researcher's answers do hold the secrets the others must not get.
  const researcher = await get("/api/tasks/1/hidden", cookies.res);
  expect(leaks([researcher.body], secrets).length).toBeGreaterThan(0);

  const seatContext = await browser.newContext();
  const seatPage = await seatContext.newPage();
  await seatPage.goto(`${studio.url}${play.agentUrl}`);
  await expect(seatPage.getByRole("heading", { name: "You are the agent" })).toBeVisible();
  const seatCookie = (await seatContext.cookies()).find((c) => c.name.startsWith("colbench_seat_"))!;
  expect(seatCookie.httpOnly).toBe(true);

  const refused: Record<string, number> = {};
  for (const [who, cookie] of [["annotator", cookies.ann!], ["agent seat", `${seatCookie.name}=${seatCookie.value}`]] as const) {
    let denied = 0;
    for (const url of everyUrl()) {
      const { status, body } = await get(url, cookie);
      expect(leaks([body], secrets), `${who} ${url} (HTTP ${status})`).toEqual([]);
      if (status === 403) denied++;
    }
    refused[who] = denied;
    // The labelling desk, as its page would drive it, on each queue: the annotator labels the blind
    // queue (its pair comes out blinded) and is refused the one they are not in; a seat link, both.
    for (const [queue, allowed] of [[queues.blind, who === "annotator"], [queues.elsewhere, false]] as const) {
      const crawled = await deskCrawl(queue, cookie);
      for (const { url, status, body } of crawled) expect(leaks([body], secrets), `${who} ${url} (HTTP ${status})`).toEqual([]);
      expect(crawled.map((r) => r.status), `${who} on queue ${queue}`).toEqual(allowed ? [200, 200, 200, 200, 200] : [403, 403, 403, 403, 403]);
      if (allowed) expect(JSON.parse(crawled[0]!.body).pair.left.tests.length).toBeGreaterThan(0);
    }
    // The hidden routes themselves refuse, with the reason.
    const hidden = await get("/api/tasks/1/hidden", cookie);
    expect(hidden.status).toBe(403);
  }
  console.log(`hidden-information crawl: ${everyUrl().length} URLs each; refused: ${JSON.stringify(refused)}`);
  // The control for the desk crawl: a queue that shows hidden information to its members does send it.
  const open = await deskCrawl(queues.open, cookies.ann);
  expect(leaks([open[0]!.body], secrets).length).toBeGreaterThan(0);

  // In a browser, as a person typing URLs: the agent seat, then the annotator.
  const recorder = await recordResponses(seatPage);
  for (const url of ["/tasks/1", `/play/${play.episodeId}/collaborator`, `/episodes/${play.episodeId}`, "/api/tasks/1/hidden"]) {
    const response = await seatPage.goto(`${studio.url}${url}`);
    expect(response?.status(), url).toBe(403);
  }
  await seatPage.screenshot({ path: `${shots}/access-seat-refused.png` });
  await recorder.settle();
  expect(leaks(recorder.bodies, secrets)).toEqual([]);

  const annotatorContext = await browser.newContext();
  await annotatorContext.addCookies([{ name: cookies.ann!.split("=")[0]!, value: cookies.ann!.split("=").slice(1).join("="), url: studio.url }]);
  const annotator = await annotatorContext.newPage();
  await annotator.goto(`${studio.url}/tasks/1`);
  await expect(annotator.getByTestId("hidden-withheld")).toBeVisible();
  await expect(annotator.getByTestId("signed-in")).toContainText("ann");
  await expect(annotator.getByRole("link", { name: "Play" })).toHaveCount(0);
  await annotator.screenshot({ path: `${shots}/access-annotator-task.png`, fullPage: true });
  expect((await annotator.goto(`${studio.url}/episodes/${play.episodeId}`))?.status()).toBe(403);

  // The researcher opens the same task and reveals what is hidden.
  const researcherContext = await browser.newContext();
  await researcherContext.addCookies([{ name: cookies.res!.split("=")[0]!, value: cookies.res!.split("=").slice(1).join("="), url: studio.url }]);
  const res = await researcherContext.newPage();
  await res.goto(`${studio.url}/tasks/1`);
  await expect(res.getByTestId("hidden-withheld")).toHaveCount(0);
  expect((await res.goto(`${studio.url}/episodes/${play.episodeId}`))?.status()).toBe(200);
  for (const context of [seatContext, annotatorContext, researcherContext]) await context.close();
});

test("a shared studio asks for sign-in; sign-out ends the session; a disabled user is out at once", async () => {
  expect((await get("/")).status).toBe(401);
  expect((await get("/api/tasks")).status).toBe(401);
  expect((await get("/api/health")).status).toBe(200);
  // The labelling pages and routes, with no session.
  for (const q of Object.values(queues)) {
    for (const url of ["/annotate", `/annotate/${q}`, `/annotate/${q}/agreement`, `/api/queues/${q}/agreement`, `/api/queues/${q}/export?format=raw`]) expect((await get(url)).status, url).toBe(401);
    for (const { url, status } of await deskCrawl(q)) expect(status, url).toBe(401);
  }
  // Admins manage users; researchers may not.
  expect((await get("/admin/users", cookies.res)).status).toBe(403);
  expect((await get("/admin/users", cookies.boss)).status).toBe(200);
  // The System page (what `colbench doctor` reports) is for admins too.
  expect((await get("/admin/system", cookies.res)).status).toBe(403);
  expect((await get("/admin/system", cookies.boss)).status).toBe(200);
  const made = await fetch(`${studio.url}/api/users`, { method: "POST", headers: { cookie: cookies.boss!, "content-type": "application/json" }, body: JSON.stringify({ name: "temp", role: "annotator" }) });
  expect(made.status).toBe(201);
  const { link, user } = (await made.json()) as { link: string; user: { id: number } };
  const temp = await signIn(link);
  expect((await get("/tasks", temp)).status).toBe(200);
  const disabled = await fetch(`${studio.url}/api/users/${user.id}`, { method: "PATCH", headers: { cookie: cookies.boss!, "content-type": "application/json" }, body: JSON.stringify({ disabled: true }) });
  expect(disabled.status).toBe(200);
  expect((await get("/tasks", temp)).status).toBe(401);
  // Sign-out ends only this browser's session.
  const again = await signIn(links.ann!);
  await fetch(`${studio.url}/api/signout`, { method: "POST", headers: { cookie: again } });
  expect((await get("/tasks", again)).status).toBe(401);
  expect((await get("/tasks", cookies.ann)).status).toBe(200);
});

test("local mode: the studio on 127.0.0.1 with no user opens with no sign-in", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("link", { name: "Users" })).toBeVisible();
  await expect(page.getByTestId("signed-in")).toHaveCount(0);
});

/** Every route file's mutating methods, as URLs with ids filled in. */
function mutatingRoutes(): Array<{ method: string; url: string }> {
  const found: Array<{ method: string; url: string }> = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name === "route.ts") {
        const source = fs.readFileSync(file, "utf8");
        const url = "/" + path.relative(path.join(root, "app"), path.dirname(file)).replace(/\[[^\]]+\]/g, "1");
        for (const m of source.matchAll(/export async function (POST|PUT|PATCH|DELETE)\b/g)) found.push({ method: m[1]!, url });
      }
    }
  };
  walk(path.join(root, "app", "api"));
  return found;
}

test("requests an attacker's page or script would send are refused", async () => {
  const routes = mutatingRoutes();
  expect(routes.length).toBeGreaterThanOrEqual(8);
  let tried = 0;
  let held = 0;
  const hold = (ok: boolean, what: string) => {
    tried++;
    if (ok) held++;
    else console.log(`NOT HELD: ${what}`);
  };
  for (const { method, url } of routes) {
    // Signed in as the admin, so that what refuses is the cross-site check, not a missing session.
    const crossSite = await fetch(`${studio.url}${url}`, { method, headers: { cookie: cookies.boss!, origin: "http://evil.example", "sec-fetch-site": "cross-site", "content-type": "text/plain" }, body: '{"benchmark":"backend"}' });
    hold(crossSite.status === 403, `cross-site ${method} ${url}: ${crossSite.status}`);
    const byOrigin = await fetch(`${studio.url}${url}`, { method, headers: { cookie: cookies.boss!, origin: "http://evil.example", "content-type": "application/json" }, body: "{}" });
    hold(byOrigin.status === 403, `foreign Origin ${method} ${url}: ${byOrigin.status}`);
    const form = await fetch(`${studio.url}${url}`, { method, headers: { cookie: cookies.boss!, "content-type": "application/x-www-form-urlencoded" }, body: "a=b" });
    hold(form.status === 415, `form body ${method} ${url}: ${form.status}`);
    const big = await fetch(`${studio.url}${url}`, { method, headers: { cookie: cookies.boss!, "content-type": "application/json" }, body: JSON.stringify({ text: "x".repeat(2 * 1024 * 1024) }) });
    hold(big.status === 413, `2 MiB body ${method} ${url}: ${big.status}`);
  }
  for (const url of [
    "/api/renders/..%2F..%2Fpackage.json",
    "/api/renders/%2e%2e%2f%2e%2e%2fpackage.json",
    "/api/renders/" + "a".repeat(63) + "%2f",
    "/vendor/pyodide/..%2F..%2Fpackage.json",
    "/vendor/pyodide/%2e%2e%2fpackage.json",
    "/vendor/pyodide/..%5c..%5cpackage.json",
  ]) {
    const { status, body } = await get(url, cookies.boss);
    hold(status >= 400 && !body.includes("colbench-studio"), `traversal ${url}: ${status}`);
  }
  // The studio's own pages still get through (the checks do not simply refuse everything).
  const own = await fetch(`${studio.url}/api/users`, { method: "POST", headers: { cookie: cookies.boss!, origin: studio.url, "sec-fetch-site": "same-origin", "content-type": "application/json" }, body: JSON.stringify({ name: "own-page", role: "annotator" }) });
  expect(own.status).toBe(201);
  console.log(`attacks: ${tried} tried, ${held} held`);
  expect(held).toBe(tried);
});
