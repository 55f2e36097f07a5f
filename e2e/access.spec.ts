import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { chromium, expect, test, type Browser, type BrowserContext } from "./test";
import { e2ePort } from "./ports";
import { leaks, recordResponses, secretPieces } from "./response-recorder";
import { startStudio, type RunningStudio } from "./studio";
import { chromiumArgs, chromiumPath } from "./chromium";

// A shared studio (users defined): who may see what, tried from outside by typing URLs, for each
// role and for seat links; then requests an attacker's page or script would send. A second studio
// in local mode (127.0.0.1, no users) is tried through a foreign Host, as DNS rebinding would.

const root = path.resolve(import.meta.dirname, "..");
const PORT = e2ePort(2);
/** The local-mode studio, and the "other site" (another origin) hostile pages come from. */
const LOCAL_PORT = PORT + 1;
const FOREIGN_PORT = PORT + 2;
const FOREIGN_HOST = "rebind.attacker.example";
const shots = "e2e/artifacts";

let studio: RunningStudio;
let local: RunningStudio;
let foreign: http.Server;
/** What the foreign site serves, by path. */
const foreignPages: Record<string, string> = {};
const links: Record<string, string> = {};
const cookies: Record<string, string> = {};
let secrets: string[] = [];
let backendSecrets: string[] = [];
let frontendSecrets: string[] = [];
let play: { episodeId: number; runId: number; agentUrl: string; simulatorUrl: string };
let frontPlay: { episodeId: number; runId: number; agentUrl: string; simulatorUrl: string; taskId: number };
let frontendTask = 0;
let frontendRun = 0;
const renders = { target: "", answer: "" };
const seatCookies: Record<"agent" | "collaborator", string> = { agent: "", collaborator: "" };
/** Labelling queues on task 1: one the annotator labels blind, one that shows them hidden information, one they are not in. */
const queues = { blind: 0, open: 0, elsewhere: 0 };

function colbench(dataDir: string, args: string[]): string {
  const result = spawnSync(process.execPath, [path.join(root, "cli", "bin.mjs"), ...args], {
    cwd: root,
    env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "" },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`colbench ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A request as a script would send it (any Host, a cookie jar of one cookie); event streams are
 * read for a moment. Bodies are read as latin1 too, so a PNG's bytes can be searched.
 */
function send(
  base: string,
  url: string,
  options: { cookie?: string; host?: string; method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.cookie) headers.cookie = options.cookie;
    if (options.host) headers.host = options.host;
    if (options.body !== undefined) headers["content-length"] = String(Buffer.byteLength(options.body));
    const req = http.request(`${base}${url}`, { method: options.method ?? "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        const bytes = Buffer.concat(chunks);
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          body: bytes.toString("utf8") + "\n" + bytes.toString("latin1"),
        });
      };
      if (String(res.headers["content-type"]).includes("text/event-stream")) {
        timer = setTimeout(() => {
          res.destroy();
          done();
        }, 800);
      }
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", done);
      res.on("error", done);
      res.on("close", done);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}
const get = (url: string, cookie?: string) => send(studio.url, url, { cookie });

/** Opens a sign-in link: its GET only asks to confirm; the confirming POST (same origin) starts the session. */
async function signIn(link: string): Promise<string> {
  const url = link.replace(/^http:\/\/[^/]+/, "");
  const token = new URL(link).searchParams.get("token")!;
  const shown = await get(url);
  expect(shown.status).toBe(200);
  expect(shown.headers["set-cookie"]).toBeUndefined();
  expect(shown.body).toContain("Sign in as");
  const posted = await confirm(token);
  expect(posted.status).toBe(303);
  const cookie = String(posted.headers["set-cookie"]);
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Strict/i);
  expect(cookie).not.toMatch(/Secure/i);
  return cookie.split(";")[0]!;
}
const confirm = (token: string, origin = studio.url) =>
  send(studio.url, "/signin", {
    method: "POST",
    headers: { origin, "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded" },
    body: `token=${encodeURIComponent(token)}`,
  });

const keyOf = (link: string) => new URL(link, studio.url).searchParams.get("key")!;
const firstLine = (body: string) => body.split("\n")[0]!;

/** A seat link's confirmation as its own page posts it (or as another site's page would). */
const takeSeat = (link: string, from: { origin: string; site: string } = { origin: studio.url, site: "same-origin" }) =>
  send(studio.url, link.split("?")[0]!, {
    method: "POST",
    headers: { origin: from.origin, "sec-fetch-site": from.site, "content-type": "application/x-www-form-urlencoded" },
    body: `key=${encodeURIComponent(keyOf(link))}`,
  });

/** A seat link, as a browser opens it: it only asks; the confirmation swaps the key for that seat's cookie. */
async function seatCookie(link: string): Promise<string> {
  const opened = await get(link);
  expect(opened.status).toBe(200);
  expect(opened.headers["set-cookie"]).toBeUndefined();
  const taken = await takeSeat(link);
  expect(taken.status).toBe(303);
  expect(taken.headers.location).not.toContain("key=");
  const cookie = String(taken.headers["set-cookie"]).split(";")[0]!;
  expect(cookie).toMatch(/^colbench_seat_\d+_(agent|simulator)=/);
  return cookie;
}

/** A researcher hands a person's seat out: a new link, its key shown this once. */
async function handOut(
  episodeId: number,
  seat: "agent" | "simulator",
  days?: number,
): Promise<{ id: number; url: string; expiresAt: string }> {
  const made = await send(studio.url, `/api/episodes/${episodeId}/seat-links`, {
    method: "POST",
    cookie: cookies.res,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seat, days }),
  });
  expect(made.status, made.body).toBe(201);
  return JSON.parse(firstLine(made.body)) as { id: number; url: string; expiresAt: string };
}

/** An episode's seat links as the researcher lists them (never with a key). */
async function seatLinks(
  episodeId: number,
): Promise<Array<{ id: number; seat: string; status: string; openedAt: string | null }>> {
  const listed = await get(`/api/episodes/${episodeId}/seat-links`, cookies.res);
  expect(listed.status).toBe(200);
  return (
    JSON.parse(firstLine(listed.body)) as {
      links: Array<{ id: number; seat: string; status: string; openedAt: string | null }>;
    }
  ).links;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-access-"));
  colbench(dataDir, ["db", "seed"]);
  for (const [name, role] of [
    ["ann", "annotator"],
    ["res", "researcher"],
    ["boss", "admin"],
  ] as const) {
    links[name] = /sign-in link: (\S+)/.exec(
      colbench(dataDir, ["users", "add", name, "--role", role, "--url", `http://127.0.0.1:${PORT}`]),
    )![1]!;
  }
  // Two runs on task 1 whose scored episodes (per-test results) hold its hidden tests, and queues of their pair.
  const models = process.env.COLBENCH_E2E_MODELS!;
  for (const name of ["asks-a", "asks-b"])
    colbench(dataDir, [
      "run",
      "--benchmark",
      "backend",
      "--tasks",
      "ids=1",
      "--name",
      name,
      "--agent",
      `${models}#never-answer`,
      "--simulator",
      `${models}#simulator`,
    ]);
  // A scored frontend run (run 3): the render of its target, hidden information. (Its agent never
  // answers: the scripted agent's answer is the target page itself, which would make it public.)
  colbench(dataDir, [
    "run",
    "--benchmark",
    "frontend",
    "--limit",
    "1",
    "--name",
    "front",
    "--agent",
    `${models}#never-answer`,
    "--simulator",
    `${models}#simulator`,
  ]);
  frontendRun = 3;
  for (const [name, extra] of [
    ["blind", ["--members", "ann"]],
    ["open", ["--members", "ann", "--shows-hidden"]],
    ["elsewhere", ["--members", "res"]],
  ] as const) {
    queues[name] = (
      JSON.parse(
        colbench(dataDir, ["queues", "create", name, "--runs", "asks-a,asks-b", "--overlap", "2", ...extra]),
      ) as { id: number }
    ).id;
  }
  studio = await startStudio(PORT, dataDir);
  for (const name of Object.keys(links)) cookies[name] = await signIn(links[name]!);
  // The researcher starts episodes with people in both seats, and reads what is hidden.
  const start = async (benchmark: string, taskId: number) => {
    const created = await send(studio.url, "/api/play", {
      method: "POST",
      cookie: cookies.res,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ benchmark, taskId, seat: "both" }),
    });
    expect(created.status, created.body).toBe(201);
    return JSON.parse(created.body.split("\n")[0]!) as typeof frontPlay;
  };
  play = await start("backend", 1);
  expect(play.agentUrl).toMatch(/\?key=/);
  const json = async <T>(url: string) => JSON.parse((await get(url, cookies.res)).body.split("\n")[0]!) as T;
  const hidden = await json<{ groundTruth: string; testCases: Array<{ expression: string }> }>("/api/tasks/1/hidden");
  const episodes = await json<Array<{ taskId: number }> | { items: Array<{ taskId: number }> }>(
    `/api/runs/${frontendRun}/episodes`,
  );
  frontendTask = (Array.isArray(episodes) ? episodes : episodes.items)[0]!.taskId;
  frontPlay = await start("frontend", frontendTask);
  // The researcher took the collaborator's seat and handed the agent's out; a link for the collaborator's is made apart.
  expect(frontPlay.simulatorUrl).toBe(`/play/${frontPlay.episodeId}/collaborator`);
  frontPlay.simulatorUrl = (await handOut(frontPlay.episodeId, "simulator")).url;
  const target = await json<{ groundTruth: string; scoredRender: { id: string } | null }>(
    `/api/tasks/${frontendTask}/hidden`,
  );
  renders.target = target.scoredRender!.id;
  // A render id that names no file: answered like a target the viewer may not see.
  renders.answer = "0".repeat(64);
  // The target render's own bytes are a secret too: a piece from the middle of the file.
  const png = fs.readFileSync(path.join(dataDir, "renders", renders.target.slice(0, 2), `${renders.target}.png`));
  const renderPiece = png.subarray(Math.floor(png.length / 2), Math.floor(png.length / 2) + 48).toString("latin1");
  backendSecrets = [
    ...secretPieces(hidden.groundTruth.split("\n").slice(1).join("\n")),
    ...hidden.testCases.map((t) => t.expression),
  ];
  frontendSecrets = [
    ...secretPieces(target.groundTruth, 30).filter((l) => !/tailwindcss|<!doctype|<meta/i.test(l)),
    renderPiece,
  ];
  secrets = [...backendSecrets, ...frontendSecrets];
  expect(backendSecrets.length).toBeGreaterThan(3);
  expect(frontendSecrets.length).toBeGreaterThan(2);
  seatCookies.agent = await seatCookie(frontPlay.agentUrl);
  seatCookies.collaborator = await seatCookie(frontPlay.simulatorUrl);

  // The same studio's data in local mode: no users, loopback.
  const localDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-access-local-"));
  colbench(localDir, ["db", "seed"]);
  local = await startStudio(LOCAL_PORT, localDir);
  foreign = http.createServer((req, res) => {
    const body = foreignPages[(req.url ?? "/").split("?")[0]!];
    res.writeHead(body ? 200 : 404, { "content-type": "text/html" });
    res.end(body ?? "not here");
  });
  await new Promise<void>((resolve) => foreign.listen(FOREIGN_PORT, "127.0.0.1", resolve));
});

test.afterAll(async () => {
  foreign?.close();
  const codes = [await studio?.stop(), await local?.stop()];
  for (const s of [studio, local]) if (s) fs.rmSync(s.dataDir, { recursive: true, force: true });
  expect(codes).toEqual([0, 0]);
});

/** Every page and route file of app/ (GET), with this studio's ids in its dynamic segments. */
function everyUrl(): string[] {
  const { episodeId: ep, runId: run } = play;
  const fep = frontPlay.episodeId;
  const values: Record<string, string[]> = {
    "tasks/[id]": ["1", String(frontendTask)],
    "runs/[id]": [String(run), String(frontendRun)],
    "episodes/[id]": [String(ep), String(fep)],
    "play/[episodeId]": [String(ep), String(fep)],
    "annotate/[id]": Object.values(queues).map(String),
    "queues/[id]": Object.values(queues).map(String),
    "users/[id]": ["1"],
    "renders/[id]": [renders.target, renders.answer],
    "weights/[model]": ["clip", "critic", "policy"],
    "[model]/[file]": ["config.json", "model.safetensors"],
    "pyodide/[file]": ["pyodide-lock.json"],
    "vs/[...file]": ["loader.js"],
  };
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (
        entry.name === "page.tsx" ||
        (entry.name === "route.ts" && /export (async )?function GET\b/.test(fs.readFileSync(file, "utf8")))
      ) {
        let urls = [""];
        const parts = path.relative(path.join(root, "app"), path.dirname(file)).split(path.sep).filter(Boolean);
        parts.forEach((part, i) => {
          const options = part.startsWith("[") ? (values[`${parts[i - 1]}/${part}`] ?? ["1"]) : [part];
          urls = urls.flatMap((u) => options.map((o) => `${u}/${o}`));
        });
        found.push(...urls.map((u) => u || "/"));
      }
    }
  };
  walk(path.join(root, "app"));
  // Query variants the routes answer differently.
  const extra = [
    ...["viewer", "simulator", "agent"].flatMap((seat) =>
      [ep, fep].map((e) => `/api/episodes/${e}/events?seat=${seat}`),
    ),
    ...Object.values(queues).flatMap((q) => [
      `/api/queues/${q}/export?format=raw`,
      `/api/queues/${q}/export?format=openrlhf-critic`,
    ]),
    `/api/runs/${frontendRun}/export?format=official`,
    `/compare?a=${run}&b=${frontendRun}`,
    `/api/tasks?benchmark=frontend`,
  ];
  // Next's image optimizer, pointed at everything that carries hidden bytes.
  const internal = found.filter((u) => /^\/api\/(renders|tasks\/\d+\/preview|weights)\//.test(u));
  const optimizer = internal.map((u) => `/_next/image?url=${encodeURIComponent(u)}&w=1920&q=75`);
  return [...new Set([...found, ...extra, ...optimizer])];
}

/** Where the collaborator seat of the frontend episode may meet that task's hidden information: its seat and its target. */
function collaboratorMay(url: string): boolean {
  const fep = frontPlay.episodeId;
  return [
    `/play/${fep}/collaborator`,
    `/api/episodes/${fep}/events?seat=simulator`,
    `/api/tasks/${frontendTask}/preview`,
    `/api/renders/${renders.target}`,
  ].includes(url);
}

test("every page and route, as everyone: hidden information and target renders reach only those allowed", async () => {
  test.setTimeout(240_000);
  const urls = everyUrl();
  expect(urls.length).toBeGreaterThan(60);
  expect(urls.some((u) => u.startsWith("/_next/image"))).toBe(true);
  let requests = 0;
  let held = 0;
  const notHeld: string[] = [];
  const check = (ok: boolean, what: string) => {
    requests++;
    if (ok) held++;
    else notHeld.push(what);
  };
  const identities: Array<[string, string | undefined]> = [
    ["anonymous", undefined],
    ["annotator", cookies.ann],
    ["agent seat link", seatCookies.agent],
    ["collaborator seat link", seatCookies.collaborator],
    ["researcher", cookies.res],
    ["admin", cookies.boss],
  ];
  const served: Record<string, Record<string, number>> = {};
  for (const [who, cookie] of identities) {
    served[who] = {};
    for (const url of urls) {
      const { status, headers, body } = await get(url, cookie);
      served[who][url] = status;
      // Every answer carries the headers, whoever asks.
      check(
        headers["x-frame-options"] === "DENY" ||
          (headers["x-frame-options"] === "SAMEORIGIN" && /\/preview$/.test(url)),
        `${who} ${url}: X-Frame-Options ${String(headers["x-frame-options"])}`,
      );
      check(
        headers["referrer-policy"] === "no-referrer",
        `${who} ${url}: Referrer-Policy ${String(headers["referrer-policy"])}`,
      );
      if (url.startsWith("/_next/image"))
        check(
          status === 404 && !String(headers["content-type"]).startsWith("image/"),
          `${who} ${url}: the optimizer answered ${status}`,
        );
      // No GET, whoever asks, plants a seat in the browser.
      check(!String(headers["set-cookie"] ?? "").includes("colbench_seat_"), `${who} ${url}: set a seat cookie`);
      // A seat is never handed the other seat's key, in any form, nor a link to it with a key.
      const otherSeat = who === "collaborator seat link" ? "agent" : who === "agent seat link" ? "collaborator" : null;
      if (otherSeat) {
        const keys =
          otherSeat === "agent" ? [keyOf(play.agentUrl), keyOf(frontPlay.agentUrl)] : [keyOf(frontPlay.simulatorUrl)];
        const found = leaks([body, JSON.stringify(headers)], [...keys, ...keys.map(sha256)]);
        check(
          found.length === 0 && !new RegExp(`/play/\\d+/${otherSeat}\\?key=`).test(body),
          `${who} ${url} (HTTP ${status}): the ${otherSeat}'s seat key ${found.join("; ")}`,
        );
      }
      if (who === "researcher" || who === "admin") continue;
      const forbidden = who === "collaborator seat link" && collaboratorMay(url) ? backendSecrets : secrets;
      const found = leaks([body], forbidden);
      check(found.length === 0, `${who} ${url} (HTTP ${status}): ${found.join("; ")}`);
      // A target render is a secret by its id alone: only 404 to those who may not see it.
      if (url === `/api/renders/${renders.target}`)
        check(who === "collaborator seat link" ? status === 200 : status >= 400, `${who} ${url}: ${status}`);
    }
  }
  // Controls: those who may see do get it (the crawl is not simply refusing everything).
  expect(served.researcher![`/api/renders/${renders.target}`]).toBe(200);
  expect(served.researcher![`/api/renders/${renders.answer}`]).toBe(404);
  expect(served["collaborator seat link"]![`/api/tasks/${frontendTask}/preview`]).toBe(200);
  expect(served["collaborator seat link"]![`/api/tasks/1/preview`]).toBe(403);
  expect(served["agent seat link"]![`/api/tasks/${frontendTask}/preview`]).toBe(403);
  expect(leaks([(await get("/api/tasks/1/hidden", cookies.res)).body], secrets).length).toBeGreaterThan(0);
  expect(
    leaks([(await get(`/api/renders/${renders.target}`, seatCookies.collaborator)).body], frontendSecrets).length,
  ).toBeGreaterThan(0);

  // The same URLs through a foreign Host, on this shared studio (as its admin) and on the local-mode studio.
  for (const [name, s, cookie] of [
    ["shared", studio, cookies.boss],
    ["local", local, undefined],
  ] as const) {
    for (const url of urls) {
      const { status, body } = await send(s.url, url, { cookie, host: `${FOREIGN_HOST}:${new URL(s.url).port}` });
      check(status === 421 && leaks([body], secrets).length === 0, `${name} studio, foreign Host, ${url}: ${status}`);
    }
  }
  // Local mode with its own name opens everything (the control for the foreign Host above).
  expect((await send(local.url, "/api/tasks/1/hidden")).status).toBe(200);
  for (const line of notHeld) console.log(`NOT HELD: ${line}`);
  console.log(
    `access: ${requests} requests, ${held} held (${urls.length} URLs × ${identities.length} identities, and 2 studios through a foreign Host)`,
  );
  expect(notHeld).toEqual([]);
});

test("an annotator and an agent seat link get no hidden information in a browser; the labelling desk blinds its pairs", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  /** The labelling desk's requests (POST), in the order a page sends them, for one queue. */
  const deskCrawl = async (queue: number, cookie?: string) => {
    const post = async (action: string, body: unknown) => {
      const r = await send(studio.url, `/api/queues/${queue}/${action}`, {
        method: "POST",
        cookie,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { url: `POST /api/queues/${queue}/${action}`, status: r.status, body: r.body.split("\n")[0]! };
    };
    const next = await post("next", { holding: [] });
    const itemId = (JSON.parse(next.body) as { pair?: { itemId: number } }).pair?.itemId ?? 1;
    const labelled = await post("labels", { itemId, side: "left", ms: 1000, holding: [] });
    const undone = await post("undo", {});
    return [next, labelled, undone, await post("skip", { itemId, holding: [] }), await post("renew", {})];
  };
  const seatContext = await browser.newContext();
  const seatPage = await seatContext.newPage();
  const seen: string[] = [];
  seatPage.on("request", (r) => seen.push(`${r.url()} ${r.headers().referer ?? ""}`));
  await seatPage.goto(`${studio.url}${play.agentUrl}`);
  await seatPage.getByTestId("confirm-seat").click();
  await expect(seatPage.getByRole("heading", { name: "You are the agent" })).toBeVisible();
  // The key left the address bar at once, and no request carried it (in its URL or Referer) after that first one.
  expect(seatPage.url()).not.toContain("key=");
  expect(seen.slice(1).filter((s) => s.includes("key="))).toEqual([]);
  const seat = (await seatContext.cookies()).find((c) => c.name.startsWith("colbench_seat_"))!;
  expect(seat.httpOnly).toBe(true);
  for (const [who, cookie] of [
    ["annotator", cookies.ann!],
    ["agent seat", `${seat.name}=${seat.value}`],
  ] as const) {
    for (const [queue, allowed] of [
      [queues.blind, who === "annotator"],
      [queues.elsewhere, false],
    ] as const) {
      const crawled = await deskCrawl(queue, cookie);
      for (const { url, status, body } of crawled)
        expect(leaks([body], secrets), `${who} ${url} (HTTP ${status})`).toEqual([]);
      expect(
        crawled.map((r) => r.status),
        `${who} on queue ${queue}`,
      ).toEqual(allowed ? [200, 200, 200, 200, 200] : [403, 403, 403, 403, 403]);
      if (allowed)
        expect(
          (JSON.parse(crawled[0]!.body) as { pair: { left: { tests: unknown[] } } }).pair.left.tests.length,
        ).toBeGreaterThan(0);
    }
    expect((await get("/api/tasks/1/hidden", cookie)).status).toBe(403);
  }
  // The control for the desk crawl: a queue that shows hidden information to its members does send it.
  const open = await deskCrawl(queues.open, cookies.ann);
  expect(leaks([open[0]!.body], secrets).length).toBeGreaterThan(0);

  const recorder = await recordResponses(seatPage);
  for (const url of [
    "/tasks/1",
    `/play/${play.episodeId}/collaborator`,
    `/episodes/${play.episodeId}`,
    "/api/tasks/1/hidden",
  ]) {
    const response = await seatPage.goto(`${studio.url}${url}`);
    expect(response?.status(), url).toBe(403);
  }
  await seatPage.screenshot({ path: `${shots}/access-seat-refused.png` });
  await recorder.settle();
  expect(leaks(recorder.bodies, secrets)).toEqual([]);

  const annotatorContext = await browser.newContext();
  await annotatorContext.addCookies([
    { name: cookies.ann!.split("=")[0]!, value: cookies.ann!.split("=").slice(1).join("="), url: studio.url },
  ]);
  const annotator = await annotatorContext.newPage();
  await annotator.goto(`${studio.url}/tasks/1`);
  await expect(annotator.getByTestId("hidden-withheld")).toBeVisible();
  await expect(annotator.getByTestId("signed-in")).toContainText("ann");
  await expect(annotator.getByRole("link", { name: "Play" })).toHaveCount(0);
  await annotator.screenshot({ path: `${shots}/access-annotator-task.png`, fullPage: true });
  expect((await annotator.goto(`${studio.url}/episodes/${play.episodeId}`))?.status()).toBe(403);

  const researcherContext = await browser.newContext();
  await researcherContext.addCookies([
    { name: cookies.res!.split("=")[0]!, value: cookies.res!.split("=").slice(1).join("="), url: studio.url },
  ]);
  const res = await researcherContext.newPage();
  await res.goto(`${studio.url}/tasks/1`);
  await expect(res.getByTestId("hidden-withheld")).toHaveCount(0);
  expect((await res.goto(`${studio.url}/episodes/${play.episodeId}`))?.status()).toBe(200);
  for (const context of [seatContext, annotatorContext, researcherContext]) await context.close();
});

/** What the studio's own pages send to each queue route, so that a refusal is the access check, not a malformed body. */
const queueBody = (method: string, action: string, queueName: string): unknown =>
  ({
    next: { holding: [] },
    labels: { itemId: 1, side: "left", ms: 1000, holding: [] },
    skip: { itemId: 1, holding: [] },
    revise: { itemId: 1, side: "right", ms: 1000 },
    reopen: { itemId: 1 },
    review: { labelId: 1, verdict: "rejected" },
    adjudicate: { itemId: 1, choice: "b" },
    members: { remove: ["ann"] },
    pairs: { source: { from: "runs", a: "asks-a", b: "asks-b" } },
    "": method === "DELETE" ? { confirm: queueName } : { instructions: "changed by one who may not", state: "closed" },
  })[action] ?? {};
/** The queue routes an annotator uses on a queue they are a member of; every other one is a lead's or a reviewer's. */
const DESK_ROUTES = new Set(["next", "labels", "undo", "skip", "renew", "history", "reopen", "revise", "later"]);

test("every queue write, tried by URL by those who may not: refused, and the queue's labels and settings unchanged", async () => {
  const routes: Array<{ method: string; action: string }> = [];
  const dir = path.join(root, "app", "api", "queues", "[id]");
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const action = entry.isDirectory() ? entry.name : entry.name === "route.ts" ? "" : null;
    if (action === null) continue;
    const file = entry.isDirectory() ? path.join(dir, entry.name, "route.ts") : path.join(dir, entry.name);
    if (!fs.existsSync(file)) continue;
    for (const m of fs.readFileSync(file, "utf8").matchAll(/export async function (POST|PUT|PATCH|DELETE)\b/g))
      routes.push({ method: m[1]!, action });
  }
  expect(routes.map((r) => r.action)).toEqual(expect.arrayContaining(["review", "adjudicate", "revise", "reopen"]));
  const state = async (queue: number) =>
    [
      (await get(`/api/queues/${queue}/export?format=raw`, cookies.res)).body,
      (await get(`/api/queues/${queue}/items`, cookies.res)).body,
    ].join("\n");
  const before = { blind: await state(queues.blind), elsewhere: await state(queues.elsewhere) };
  const refused: string[] = [];
  const accepted: string[] = [];
  const tries: Array<[string, string | undefined, number, (action: string) => boolean]> = [
    // Signed out, and both seats' cookies: no queue route at all.
    ["anonymous", undefined, queues.blind, () => true],
    ["agent seat link", seatCookies.agent, queues.blind, () => true],
    ["collaborator seat link", seatCookies.collaborator, queues.blind, () => true],
    // An annotator: nothing on a queue they are not in; on their own, only the desk's routes.
    ["annotator", cookies.ann, queues.elsewhere, () => true],
    ["annotator", cookies.ann, queues.blind, (action) => !DESK_ROUTES.has(action)],
  ];
  for (const [who, cookie, queue, mustRefuse] of tries)
    for (const { method, action } of routes) {
      if (!mustRefuse(action)) continue;
      const url = `/api/queues/${queue}${action ? `/${action}` : ""}`;
      const answer = await send(studio.url, url, {
        method,
        cookie,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(queueBody(method, action, queue === queues.blind ? "blind" : "elsewhere")),
      });
      const line = `${who} ${method} ${url}: HTTP ${answer.status} ${firstLine(answer.body).slice(0, 120)}`;
      if ([401, 403, 404].includes(answer.status)) refused.push(line);
      else accepted.push(line);
    }
  console.log(`queue writes by those who may not: ${refused.length} refused, ${accepted.length} accepted`);
  expect(accepted).toEqual([]);
  expect(await state(queues.blind)).toBe(before.blind);
  expect(await state(queues.elsewhere)).toBe(before.elsewhere);
  // The reviewer's page is not the annotator's either; the researcher (a lead) opens it.
  expect((await get(`/annotate/${queues.blind}/review`, cookies.ann)).status).toBe(404);
  expect((await get(`/annotate/${queues.blind}/review`, cookies.res)).status).toBe(200);
});

test("the collaborator's seat link shows its own target page, and the seat's links can be revoked", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  const seen: string[] = [];
  page.on("request", (r) => seen.push(`${r.url()} ${r.headers().referer ?? ""}`));
  const recorder = await recordResponses(page);
  const response = await page.goto(`${studio.url}${frontPlay.simulatorUrl}`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["referrer-policy"]).toBe("no-referrer");
  await page.getByTestId("confirm-seat").click();
  await expect(page.getByRole("heading", { name: "You are the collaborator" })).toBeVisible();
  expect(page.url()).toBe(`${studio.url}/play/${frontPlay.episodeId}/collaborator`);
  // The target frame holds the target page (the preview answered this seat), not a refusal.
  const frame = page.frameLocator('iframe[title="Target page"]');
  const piece = frontendSecrets.find((s) => /^[^<>]{30,}$/.test(s.trim())) ?? frontendSecrets[0]!;
  await expect(frame.locator("body")).not.toContainText("error");
  const frameText = await frame.locator("body").innerText();
  expect(frameText.length).toBeGreaterThan(20);
  await page.screenshot({ path: `${shots}/access-collaborator-target.png`, fullPage: true });
  // Long-lived responses (the live stream's reconnects) may never finish: what arrived in 10 s is enough.
  await Promise.race([recorder.settle(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  // The seat got its own task's target and nothing of any other task's hidden information.
  expect(leaks(recorder.bodies, frontendSecrets).length, piece).toBeGreaterThan(0);
  expect(leaks(recorder.bodies, backendSecrets)).toEqual([]);
  expect(seen.slice(1).filter((s) => s.includes("key="))).toEqual([]);

  // Revoking the session's seat links: the cookie this browser got opens nothing any more.
  const revoked = await send(studio.url, `/api/episodes/${frontPlay.episodeId}/seat-links`, {
    method: "DELETE",
    cookie: cookies.res,
  });
  expect(revoked.status).toBe(200);
  expect((JSON.parse(revoked.body.split("\n")[0]!) as { revoked: number }).revoked).toBeGreaterThanOrEqual(2);
  expect((await page.goto(`${studio.url}/play/${frontPlay.episodeId}/collaborator`))?.status()).toBe(401);
  expect((await get(frontPlay.agentUrl)).status).toBe(401);
  expect(
    (
      await send(studio.url, `/api/episodes/${frontPlay.episodeId}/seat-links`, {
        method: "DELETE",
        cookie: cookies.ann,
      })
    ).status,
  ).toBe(403);
  await context.close();
});

test("seats stay in their role: neither seat's browser, cookies or answers hold the other's key, and 100 views of seat pages mint none", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const created = await send(studio.url, "/api/play", {
    method: "POST",
    cookie: cookies.res,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ benchmark: "backend", taskId: 2, seat: "both" }),
  });
  expect(created.status, created.body).toBe(201);
  const duo = JSON.parse(firstLine(created.body)) as {
    episodeId: number;
    ownUrl: string;
    agentUrl: string;
    simulatorUrl: string;
    links: Array<{ seat: string; url: string; link: string }>;
  };
  // The one who starts it keeps the collaborator's seat (no key) and is handed the agent's link, once.
  expect(duo.ownUrl).toBe(`/play/${duo.episodeId}/collaborator`);
  expect(duo.links.map((l) => [l.seat, l.url])).toEqual([["agent", duo.agentUrl]]);
  expect(duo.links[0]!.link).toBe(`${studio.url}${duo.agentUrl}`);
  const collaboratorUrl = (await handOut(duo.episodeId, "simulator")).url;
  const keys = { agent: keyOf(duo.agentUrl), simulator: keyOf(collaboratorUrl) };
  const minted = (await seatLinks(duo.episodeId)).map((l) => l.id);
  expect(minted).toHaveLength(2);
  const jars: Record<"agent" | "simulator", string> = { agent: "", simulator: "" };

  for (const [mine, other] of [
    ["simulator", "agent"],
    ["agent", "simulator"],
  ] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const recorder = await recordResponses(page);
    const headers: Promise<string>[] = [];
    page.on("response", (r) => void headers.push(r.allHeaders().then((h) => JSON.stringify(h))));
    const otherPage = `/play/${duo.episodeId}/${other === "agent" ? "agent" : "collaborator"}`;
    await page.goto(`${studio.url}${mine === "agent" ? duo.agentUrl : collaboratorUrl}`);
    await expect(page.getByRole("heading", { name: /^Take the/ })).toBeVisible();
    expect((await context.cookies()).filter((c) => c.name.startsWith("colbench_seat_"))).toEqual([]);
    await page.getByTestId("confirm-seat").click();
    await expect(
      page.getByRole("heading", { name: mine === "agent" ? "You are the agent" : "You are the collaborator" }),
    ).toBeVisible();
    await expect(page.getByTestId("agent-seat-link")).toHaveCount(0);
    // The seat's live stream has answered: the page has asked for all it shows (before that, on a
    // busy machine, only the page and its first scripts had come back, 3 bodies).
    await expect(page.getByText("Connecting…")).toHaveCount(0, { timeout: 30_000 });
    if (mine === "simulator")
      await page.screenshot({ path: `${shots}/access-collaborator-seat-no-agent-key.png`, fullPage: true });
    await Promise.race([recorder.settle(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
    const seatCookies = (await context.cookies()).filter((c) => c.name.startsWith("colbench_seat_"));
    expect(seatCookies.map((c) => `${c.name}=${c.value}`)).toEqual([
      `colbench_seat_${duo.episodeId}_${mine}=${keys[mine]}`,
    ]);
    // The cookie lives as long as its key: a week, not the 30 days it once had.
    expect(Math.round((seatCookies[0]!.expires * 1000 - Date.now()) / 86_400_000)).toBe(7);
    const handed = [
      ...recorder.bodies,
      ...(await Promise.all(headers)),
      await page.content(),
      JSON.stringify(await context.cookies()),
      page.url(),
    ];
    expect(recorder.bodies.length).toBeGreaterThan(3);
    expect(leaks(handed, [keys[mine]]).length, "the control: this seat's own key reached it").toBeGreaterThan(0);
    expect(leaks(handed, [keys[other], sha256(keys[other])])).toEqual([]);
    expect(handed.filter((h) => new RegExp(`${otherPage}\\?key=`).test(h))).toEqual([]);
    // With this browser's cookies, nothing of the other seat opens: its page, its stream, its moves.
    const jar = `${seatCookies[0]!.name}=${seatCookies[0]!.value}`;
    jars[mine] = jar;
    const moved = await send(studio.url, `/api/episodes/${duo.episodeId}/move`, {
      method: "POST",
      cookie: jar,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ role: other, text: "I play the other seat now" }),
    });
    expect(moved.status, moved.body).toBe(403);
    expect((await get(otherPage, jar)).status).toBe(403);
    expect((await get(`/api/episodes/${duo.episodeId}/events?seat=${other}`, jar)).status).toBe(403);
    expect((await get(`/api/episodes/${duo.episodeId}/seat-links`, jar)).status).toBe(403);
    expect(
      (
        await send(studio.url, `/api/episodes/${duo.episodeId}/seat-links`, {
          method: "POST",
          cookie: jar,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ seat: other }),
        })
      ).status,
    ).toBe(403);
    await context.close();
  }

  // 100 views of the seat pages, by the seats themselves and by the researcher, mint no key.
  const started = Date.now();
  const views: Array<[string, string]> = [
    [`/play/${duo.episodeId}/collaborator`, jars.simulator],
    [`/play/${duo.episodeId}/collaborator`, cookies.res!],
    [`/play/${duo.episodeId}/agent`, jars.agent],
    [`/play/${duo.episodeId}/agent`, cookies.res!],
  ];
  for (let i = 0; i < 100; i++) {
    const [url, cookie] = views[i % views.length]!;
    const viewed = await get(url, cookie);
    expect(viewed.status, url).toBe(200);
    expect(viewed.body).not.toMatch(/\?key=/);
  }
  console.log(`100 seat page views in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const after = await seatLinks(duo.episodeId);
  expect(after.map((l) => l.id)).toEqual(minted);
  expect(after.map((l) => l.status)).toEqual(["opened", "opened"]);

  // The researcher's list on the episode's page: a new link shown once, and revoking one.
  const context = await browser.newContext();
  await context.addCookies([
    { name: cookies.res!.split("=")[0]!, value: cookies.res!.split("=").slice(1).join("="), url: studio.url },
  ]);
  const page = await context.newPage();
  await page.goto(`${studio.url}/episodes/${duo.episodeId}`);
  const rows = page.getByTestId("seat-link-row");
  await expect(rows).toHaveCount(2);
  await page.getByTestId("new-seat-link-agent").click();
  const issued = page.getByTestId("issued-seat-link");
  await expect(issued).toContainText(`/play/${duo.episodeId}/agent?key=`);
  await expect(rows).toHaveCount(3);
  const fresh = /(\/play\/\d+\/agent\?key=\S+)/.exec(await issued.innerText())![1]!;
  expect((await get(fresh)).status).toBe(200);
  const newest = (await seatLinks(duo.episodeId))[0]!;
  await page.getByTestId(`revoke-seat-link-${newest.id}`).click();
  await expect(rows.first()).toHaveAttribute("data-status", "revoked");
  await page.screenshot({ path: `${shots}/access-seat-links.png`, fullPage: true });
  expect((await get(fresh)).status).toBe(401);
  // The others still open their seats.
  expect((await get(`/play/${duo.episodeId}/agent`, jars.agent)).status).toBe(200);
  await context.close();
});

test("a seat link opened or posted from another site seats nobody; only the studio's own confirmation does", async ({
  browser,
}) => {
  const handed = await handOut(play.episodeId, "agent");
  const link = handed.url;
  const context = await browser.newContext();
  const page = await context.newPage();
  const seated = async () => (await context.cookies()).filter((c) => c.name.startsWith("colbench_seat_"));
  // The old attack: another site sends the browser to the link. It shows the question and sets nothing.
  foreignPages["/seat-nav"] =
    `<!doctype html><script>location.href = ${JSON.stringify(`${studio.url}${link}`)}</script>`;
  await page.goto(`http://127.0.0.1:${FOREIGN_PORT}/seat-nav`);
  await expect(
    page.getByRole("heading", { name: `Take the agent's seat of episode #${play.episodeId}?` }),
  ).toBeVisible();
  expect(await seated()).toEqual([]);
  // The question's page drops the key from the address bar (and history).
  await expect.poll(() => page.url()).toBe(`${studio.url}/play/${play.episodeId}/agent`);
  // Another site's form posting the key as soon as it loads: refused, nothing set.
  foreignPages["/seat-post"] =
    `<!doctype html><form id="f" method="post" action="${studio.url}/play/${play.episodeId}/agent"><input name="key" value="${keyOf(link)}"></form><script>document.getElementById("f").submit()</script>`;
  const posted = page.waitForResponse(
    (r) => r.url() === `${studio.url}/play/${play.episodeId}/agent` && r.request().method() === "POST",
  );
  await page.goto(`http://127.0.0.1:${FOREIGN_PORT}/seat-post`);
  expect((await posted).status()).toBe(403);
  expect(await seated()).toEqual([]);
  // The same by script: refused whatever it claims.
  for (const from of [
    { origin: `http://127.0.0.1:${FOREIGN_PORT}`, site: "same-site" },
    { origin: "http://evil.example", site: "cross-site" },
    { origin: "null", site: "cross-site" },
  ]) {
    const refused = await takeSeat(link, from);
    expect(refused.status, JSON.stringify(from)).toBe(403);
    expect(refused.headers["set-cookie"]).toBeUndefined();
  }
  expect((await seatLinks(play.episodeId)).find((l) => l.id === handed.id)!.openedAt).toBeNull();
  // The control: the person confirms on the studio's own page.
  await page.goto(`${studio.url}${link}`);
  await page.getByTestId("confirm-seat").click();
  await expect(page.getByRole("heading", { name: "You are the agent" })).toBeVisible();
  expect((await seated()).map((c) => c.name)).toEqual([`colbench_seat_${play.episodeId}_agent`]);
  await context.close();
});

test("an expired seat key is refused, as a link and as the cookie it became; a key is revoked one by one", async () => {
  // A key that lives three seconds: taken while good, refused once past.
  const short = await handOut(play.episodeId, "agent", 3 / 86_400);
  expect(Date.parse(short.expiresAt) - Date.now()).toBeLessThan(3_500);
  const jar = await seatCookie(short.url);
  expect((await get(`/play/${play.episodeId}/agent`, jar)).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(short.expiresAt) - Date.now()) + 500));
  const shown = await get(short.url);
  expect(shown.status).toBe(401);
  expect(shown.body).toContain("expired");
  expect(shown.headers["set-cookie"]).toBeUndefined();
  const posted = await takeSeat(short.url);
  expect(posted.status).toBe(401);
  expect(posted.headers["set-cookie"]).toBeUndefined();
  expect((await get(`/play/${play.episodeId}/agent`, jar)).status).toBe(401);
  expect(
    (
      await send(studio.url, `/api/episodes/${play.episodeId}/move`, {
        method: "POST",
        cookie: jar,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ role: "agent", text: "still here?" }),
      })
    ).status,
  ).toBe(401);
  expect((await seatLinks(play.episodeId)).find((l) => l.id === short.id)!.status).toBe("expired");

  // Revoking one key: researchers and admins only; it and its cookie stop, the others go on.
  const [one, two] = [await handOut(play.episodeId, "agent"), await handOut(play.episodeId, "agent")];
  const oneJar = await seatCookie(one.url);
  const revokeOne = (cookie: string | undefined) =>
    send(studio.url, `/api/episodes/${play.episodeId}/seat-links/${one.id}`, { method: "DELETE", cookie });
  expect((await revokeOne(cookies.ann)).status).toBe(403);
  expect((await revokeOne(oneJar)).status).toBe(403);
  expect((await revokeOne(undefined)).status).toBe(401);
  expect((await revokeOne(cookies.res)).status).toBe(200);
  expect((await revokeOne(cookies.res)).status).toBe(409);
  expect((await get(`/play/${play.episodeId}/agent`, oneJar)).status).toBe(401);
  expect((await get(one.url)).body).toContain("revoked");
  expect((await get(two.url)).status).toBe(200);
  expect((await get(`/api/episodes/${play.episodeId}/seat-links`, cookies.ann)).status).toBe(403);
});

test("a shared studio asks for sign-in; a link works once; sign-out ends the session; a disabled user is out for good", async () => {
  expect((await get("/")).status).toBe(401);
  expect((await get("/api/tasks")).status).toBe(401);
  expect((await get("/api/health")).status).toBe(200);
  for (const q of Object.values(queues)) {
    for (const url of [
      "/annotate",
      `/annotate/${q}`,
      `/annotate/${q}/agreement`,
      `/api/queues/${q}/agreement`,
      `/api/queues/${q}/export?format=raw`,
    ])
      expect((await get(url)).status, url).toBe(401);
  }
  expect((await get("/admin/users", cookies.res)).status).toBe(403);
  expect((await get("/admin/users", cookies.boss)).status).toBe(200);
  expect((await get("/admin/system", cookies.res)).status).toBe(403);
  expect((await get("/admin/system", cookies.boss)).status).toBe(200);
  // Every link was used in beforeAll: a second use makes no session.
  for (const name of Object.keys(links)) {
    const again = await confirm(new URL(links[name]!).searchParams.get("token")!);
    expect(again.status, name).toBe(401);
    expect(again.headers["set-cookie"], name).toBeUndefined();
    expect((await get(new URL(links[name]!).pathname + new URL(links[name]!).search)).body).toContain("used already");
  }
  const made = await send(studio.url, "/api/users", {
    method: "POST",
    cookie: cookies.boss,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "temp", role: "annotator" }),
  });
  expect(made.status).toBe(201);
  const { link, user, expiresAt } = JSON.parse(made.body.split("\n")[0]!) as {
    link: string;
    user: { id: number };
    expiresAt: string;
  };
  expect(Math.round((Date.parse(expiresAt) - Date.now()) / 86_400_000)).toBe(7);
  const temp = await signIn(link);
  expect((await get("/tasks", temp)).status).toBe(200);
  const patch = (disabled: boolean) =>
    send(studio.url, `/api/users/${user.id}`, {
      method: "PATCH",
      cookie: cookies.boss,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ disabled }),
    });
  expect((await patch(true)).status).toBe(200);
  expect((await get("/tasks", temp)).status).toBe(401);
  // Enabled again: the old session stays ended; nothing new was issued.
  expect((await patch(false)).status).toBe(200);
  expect((await get("/tasks", temp)).status).toBe(401);
  // Sign-out ends only this browser's session.
  const second = /(http\S+\/signin\?token=\S+)/.exec(
    colbench(studio.dataDir, ["users", "link", "ann", "--url", studio.url]),
  )![1]!;
  const again = await signIn(second);
  await send(studio.url, "/api/signout", { method: "POST", cookie: again });
  expect((await get("/tasks", again)).status).toBe(401);
  expect((await get("/tasks", cookies.ann)).status).toBe(200);
});

test("local mode: the studio on 127.0.0.1 with no user opens with no sign-in, under its own names only", async ({
  page,
}) => {
  const response = await page.goto(local.url);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("link", { name: "Users" })).toBeVisible();
  await expect(page.getByTestId("signed-in")).toHaveCount(0);
  expect((await send(local.url, "/", { host: `localhost:${LOCAL_PORT}` })).status).toBe(200);
  expect((await send(local.url, "/", { host: `${FOREIGN_HOST}:${LOCAL_PORT}` })).status).toBe(421);
});

/** Chromium that resolves the attacker's name to this machine, as DNS rebinding makes it. */
async function rebindingBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [...chromiumArgs, `--host-resolver-rules=MAP ${FOREIGN_HOST} 127.0.0.1`],
  });
}

test("DNS rebinding: a page under a foreign name that resolves to the local studio reads nothing and writes nothing", async () => {
  test.setTimeout(120_000);
  const browser = await rebindingBrowser();
  try {
    // Every run in the local studio's database, played sessions and archived ones too.
    const count = async () => colbench(local.dataDir, ["runs", "list", "--all", "--archived", "--json"]);
    const before = await count();
    const page = await browser.newPage();
    const response = await page.goto(`http://${FOREIGN_HOST}:${LOCAL_PORT}/`);
    expect(response?.status()).toBe(421);
    await page.screenshot({ path: `${shots}/access-rebinding-refused.png` });
    // The attacker's script, same-origin with the rebound name: every read and write is refused.
    const tried = await page.evaluate(async () => {
      const out: Array<{ status: number; body: string }> = [];
      for (const url of ["/api/tasks/1/hidden", "/api/tasks", "/runs/1", "/api/runs"]) {
        const r = await fetch(url);
        out.push({ status: r.status, body: await r.text() });
      }
      const write = await fetch("/api/runs", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          benchmark: "backend",
          tasks: "ids=1",
          agent: { baseUrl: "http://attacker.example/v1", model: "m" },
          simulator: { baseUrl: "http://attacker.example/v1", model: "s" },
        }),
      });
      out.push({ status: write.status, body: await write.text() });
      return out;
    });
    expect(tried.map((t) => t.status)).toEqual([421, 421, 421, 421, 421]);
    const localHidden = JSON.parse((await send(local.url, "/api/tasks/1/hidden")).body.split("\n")[0]!) as {
      groundTruth: string;
    };
    expect(
      leaks(
        tried.map((t) => t.body),
        secretPieces(localHidden.groundTruth.split("\n").slice(1).join("\n")),
      ),
    ).toEqual([]);
    expect(await count()).toBe(before);
  } finally {
    await browser.close();
  }
});

test("framing: a page on another origin cannot show the studio in a frame", async ({ browser }) => {
  foreignPages["/frame"] =
    `<!doctype html><title>elsewhere</title><iframe id="f" src="${local.url}/runs" width="900" height="600"></iframe>`;
  const page = await browser.newPage();
  // The studio itself loads (the control), then in the foreign page's frame it does not.
  expect((await page.goto(`${local.url}/runs`))?.status()).toBe(200);
  await page.goto(`http://127.0.0.1:${FOREIGN_PORT}/frame`);
  await page.waitForLoadState("load");
  await expect.poll(() => page.frames().length).toBe(2);
  const framed = page.frames()[1]!;
  await expect.poll(() => framed.url()).not.toBe("about:blank");
  expect(framed.url()).not.toContain(`127.0.0.1:${LOCAL_PORT}/runs`);
  expect(await framed.locator("nav").count()).toBe(0);
  await page.screenshot({ path: `${shots}/access-framing-refused.png` });
  await page.close();
});

test("login CSRF: a foreign page cannot change who is signed in", async ({ browser }) => {
  test.setTimeout(90_000);
  const made = await send(studio.url, "/api/users", {
    method: "POST",
    cookie: cookies.boss,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "planted", role: "annotator" }),
  });
  const link = (JSON.parse(made.body.split("\n")[0]!) as { link: string }).link;
  const token = new URL(link).searchParams.get("token")!;
  const context: BrowserContext = await browser.newContext();
  await context.addCookies([
    { name: cookies.boss!.split("=")[0]!, value: cookies.boss!.split("=").slice(1).join("="), url: studio.url },
  ]);
  const page = await context.newPage();
  // A form that posts the planted link's token to the studio as soon as it loads.
  foreignPages["/csrf"] =
    `<!doctype html><form id="f" method="post" action="${studio.url}/signin"><input name="token" value="${token}"></form><script>document.getElementById("f").submit()</script>`;
  const posted = page.waitForResponse((r) => r.url() === `${studio.url}/signin`);
  await page.goto(`http://127.0.0.1:${FOREIGN_PORT}/csrf`);
  expect((await posted).status()).toBe(403);
  // And the old attack: sending the browser to the link itself only shows the confirmation.
  foreignPages["/nav"] =
    `<!doctype html><script>location.href = ${JSON.stringify(`${studio.url}/signin?token=${token}`)}</script>`;
  await page.goto(`http://127.0.0.1:${FOREIGN_PORT}/nav`);
  await expect(page.getByRole("heading", { name: "Sign in as planted?" })).toBeVisible();
  await expect(page.getByText("signed in as boss now")).toBeVisible();
  await page.goto(`${studio.url}/`);
  await expect(page.getByTestId("signed-in")).toContainText("boss");
  // The planted link is still unused: its owner can still sign in with it.
  expect((await get(`/signin?token=${encodeURIComponent(token)}`)).body).toContain("Sign in as planted?");
  await context.close();
});

test("requests an attacker's page or script would send are refused", async () => {
  const routes: Array<{ method: string; url: string }> = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name === "route.ts") {
        const url = "/" + path.relative(path.join(root, "app"), path.dirname(file)).replace(/\[[^\]]+\]/g, "1");
        for (const m of fs.readFileSync(file, "utf8").matchAll(/export async function (POST|PUT|PATCH|DELETE)\b/g))
          routes.push({ method: m[1]!, url });
      }
    }
  };
  walk(path.join(root, "app", "api"));
  expect(routes.length).toBeGreaterThanOrEqual(8);
  let tried = 0;
  let held = 0;
  const hold = (ok: boolean, what: string) => {
    tried++;
    if (ok) held++;
    else console.log(`NOT HELD: ${what}`);
  };
  const to = (method: string, url: string, headers: Record<string, string>, body: string, host?: string) =>
    send(studio.url, url, { method, cookie: cookies.boss, headers, body, host });
  for (const { method, url } of [...routes, { method: "POST", url: "/signin" }]) {
    // Signed in as the admin, so that what refuses is the check, not a missing session.
    hold(
      (
        await to(
          method,
          url,
          { origin: "http://evil.example", "sec-fetch-site": "cross-site", "content-type": "text/plain" },
          '{"benchmark":"backend"}',
        )
      ).status === 403,
      `cross-site ${method} ${url}`,
    );
    hold(
      (await to(method, url, { origin: "http://evil.example", "content-type": "application/json" }, "{}")).status ===
        403,
      `foreign Origin ${method} ${url}`,
    );
    hold(
      (
        await to(
          method,
          url,
          {
            origin: `http://${FOREIGN_HOST}:${PORT}`,
            "sec-fetch-site": "same-origin",
            "content-type": "application/json",
          },
          "{}",
          `${FOREIGN_HOST}:${PORT}`,
        )
      ).status === 421,
      `rebound ${method} ${url}`,
    );
    if (url === "/signin") continue;
    hold(
      (await to(method, url, { "content-type": "application/x-www-form-urlencoded" }, "a=b")).status === 415,
      `form body ${method} ${url}`,
    );
    const big = await fetch(`${studio.url}${url}`, {
      method,
      headers: { cookie: cookies.boss!, "content-type": "application/json" },
      body: JSON.stringify({ text: "x".repeat(2 * 1024 * 1024) }),
    });
    hold(big.status === 413, `2 MiB body ${method} ${url}: ${big.status}`);
  }
  for (const url of [
    "/api/renders/..%2F..%2Fpackage.json",
    "/api/renders/%2e%2e%2f%2e%2e%2fpackage.json",
    "/api/renders/" + "a".repeat(63) + "%2f",
    "/vendor/pyodide/..%2F..%2Fpackage.json",
    "/vendor/pyodide/%2e%2e%2fpackage.json",
    "/vendor/pyodide/..%5c..%5cpackage.json",
    "/vendor/monaco/vs/..%2F..%2F..%2F..%2F..%2Fpackage.json",
    "/vendor/monaco/vs/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/package.json",
    "/vendor/monaco/vs/..%5c..%5c..%5c..%5c..%5cpackage.json",
  ]) {
    const { status, body } = await get(url, cookies.boss);
    hold(status >= 400 && !body.includes("colbench-studio"), `traversal ${url}: ${status}`);
  }
  // The studio's own pages still get through (the checks do not simply refuse everything).
  const own = await to(
    "POST",
    "/api/users",
    { origin: studio.url, "sec-fetch-site": "same-origin", "content-type": "application/json" },
    JSON.stringify({ name: "own-page", role: "annotator" }),
  );
  expect(own.status).toBe(201);
  console.log(`attacks: ${tried} tried, ${held} held`);
  expect(held).toBe(tried);
});
