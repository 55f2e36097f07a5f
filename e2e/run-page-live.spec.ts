import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { expect, test, type Page } from "./test";
import { e2ePort } from "./ports";
import { startScriptedServer, type ScriptedServer } from "./fixtures/scripted-model-server";
import { startStudio, type RunningStudio } from "./studio";

// (Its own studio on its own port and data folder: it reads the database beside the page.)
// A run of 40 episodes watched from start to end on one page load: at several moments the run is
// held still (a gate in front of the model server keeps its answers back) and every figure the page
// shows (header state, the state line and its actions, the cards, the training-data panel, the
// episode table, pace, Started/Ended/Duration) must say what the database says; at the end, the page
// must read exactly as a reload of it.

const shots = "e2e/artifacts";
const root = path.resolve(import.meta.dirname, "..");
const PORT = e2ePort(11);
const TOTAL = 40;

let studio: RunningStudio;
let models: ScriptedServer;
let gate: Gate;

interface Gate {
  url: string;
  /** Holds every request from now on until `open` (those in flight go on). */
  hold(): void;
  open(): void;
  close(): Promise<void>;
}

/** A pass-through in front of the model server that can keep its answers back: the run then stands still. */
async function startGate(target: string): Promise<Gate> {
  const to = new URL(target);
  let holding = false;
  const held: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const pass = () => {
      const upstream = http.request(
        { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => res.destroy());
      req.pipe(upstream);
    };
    if (holding) held.push(pass);
    else pass();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    hold: () => void (holding = true),
    open: () => {
      holding = false;
      for (const pass of held.splice(0)) pass();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Truth {
  /** `playing`: running under a claim's lease; `toPlay`: pending, or running with no one holding it. */
  state: { total: number; done: number; failed: number; playing: number; toPlay: number };
  meanReward: number | null;
  startedAt: Date | null;
  endedAt: Date | null;
  turns: number;
  rows: Array<{ id: number; status: string; reward: number | null; turns: number }>;
}

/** What the database holds for the run, read on a connection of its own (the studio owns the folder and serves it). */
async function truth(runId: number): Promise<Truth> {
  const lock = JSON.parse(fs.readFileSync(path.join(studio.dataDir, "db.lock"), "utf8")) as { url: string };
  const client = new pg.Client({ connectionString: lock.url });
  await client.connect();
  try {
    const { rows } = await client.query<{
      id: number;
      status: string;
      reward: number | null;
      turns: number;
      startedAt: Date | null;
      endedAt: Date | null;
      held: boolean;
    }>(
      `SELECT id, status::text, reward, "turnCount" AS turns, "startedAt", "endedAt", "leaseUntil" IS NOT NULL AS held
         FROM "Episode" WHERE "runId" = $1 ORDER BY id`,
      [runId],
    );
    const count = (s: string) => rows.filter((r) => r.status === s).length;
    const done = rows.filter((r) => r.status === "done");
    const starts = rows.map((r) => r.startedAt).filter((d): d is Date => d !== null);
    const ends = rows.map((r) => r.endedAt).filter((d): d is Date => d !== null);
    const open = count("pending") + count("running");
    return {
      state: {
        total: rows.length,
        done: count("done"),
        failed: count("failed"),
        playing: rows.filter((r) => r.status === "running" && r.held).length,
        toPlay: count("pending") + rows.filter((r) => r.status === "running" && !r.held).length,
      },
      meanReward: done.length ? done.reduce((n, r) => n + (r.reward ?? 0), 0) / done.length : null,
      startedAt: starts.length ? new Date(Math.min(...starts.map((d) => d.getTime()))) : null,
      endedAt: open === 0 && ends.length ? new Date(Math.max(...ends.map((d) => d.getTime()))) : null,
      turns: rows.reduce((n, r) => n + r.turns, 0),
      rows: rows.map(({ id, status, reward, turns }) => ({ id, status, reward, turns })),
    };
  } finally {
    await client.end();
  }
}

/** Waits until the run stands still: two reads a second and a half apart the same. */
async function still(runId: number): Promise<Truth> {
  let before = await truth(runId);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const now = await truth(runId);
    if (JSON.stringify(now) === JSON.stringify(before)) return now;
    before = now;
  }
}

const utc = (d: Date) => `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;

/** Seconds in a Duration text ("42 s so far", "1 min 5 s"). */
function seconds(text: string): number {
  const m = /(?:(\d+) min )?(\d+) s/.exec(text);
  return m ? Number(m[1] ?? 0) * 60 + Number(m[2]) : Number.NaN;
}

/** Every figure the page shows, as text, read off the page in one go. */
async function figures(page: Page) {
  return page.evaluate(() => {
    const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? null;
    const cards: Record<string, string | undefined> = {};
    for (const card of document.querySelectorAll('[data-testid="run-card"]'))
      cards[card.getAttribute("data-label") ?? ""] = card
        .querySelector('[data-testid="run-card-value"]')
        ?.textContent?.trim();
    const rows = [...document.querySelectorAll('[data-testid="episodes-table"] tbody tr')].map((tr) =>
      [...tr.querySelectorAll("td")].map((td) => td.textContent?.trim() ?? ""),
    );
    const buttons = [...document.querySelectorAll('[data-testid="run-live"] button')].map((b) => b.textContent?.trim());
    return {
      state: text("run-state"),
      line: text("run-state-line"),
      buttons,
      cards,
      started: text("run-started"),
      ended: text("run-ended"),
      duration: text("run-duration"),
      pace: text("run-pace"),
      pairsInput:
        document.querySelector('[data-testid="step-pairs"] [data-testid="step-input"]')?.textContent?.trim() ?? null,
      candidatesInput:
        document.querySelector('[data-testid="step-candidates"] [data-testid="step-input"]')?.textContent?.trim() ??
        null,
      rows,
      pager: document.querySelector('nav[aria-label="Pages"]')?.textContent?.trim() ?? null,
    };
  });
}

type Figures = Awaited<ReturnType<typeof figures>>;

/** Where the page disagrees with the database (empty: it agrees everywhere). */
function disagreements(f: Figures, t: Truth, expectedState: string): string[] {
  const s = t.state;
  const wrong: string[] = [];
  const check = (what: string, shown: unknown, want: unknown) => {
    if (JSON.stringify(shown) !== JSON.stringify(want))
      wrong.push(`${what}: page ${JSON.stringify(shown)}, database ${JSON.stringify(want)}`);
  };
  check("header state", f.state, expectedState);
  check("state line's word", f.line?.split(":")[0], expectedState[0]!.toUpperCase() + expectedState.slice(1));
  if (expectedState === "running")
    check(
      "state line's counts",
      /(\d+)\/(\d+) ended \((\d+) done, (\d+) failed\), (\d+) playing, (\d+) to play/
        .exec(f.line ?? "")
        ?.slice(1)
        .map(Number),
      [s.done + s.failed, s.total, s.done, s.failed, s.playing, s.toPlay],
    );
  if (expectedState === "finished")
    check(
      "state line's counts",
      /all (\d+) episodes ended: (\d+) done, (\d+) failed/
        .exec(f.line ?? "")
        ?.slice(1)
        .map(Number),
      [s.total, s.done, s.failed],
    );
  check(
    "actions",
    f.buttons,
    expectedState === "running"
      ? ["Stop"]
      : s.failed
        ? [`Retry ${s.failed} failed episode${s.failed === 1 ? "" : "s"}`]
        : [],
  );
  check("card Episodes done", f.cards["Episodes done"], `${s.done}/${s.total}`);
  check("card Failed", f.cards["Failed"], String(s.failed));
  check(
    "card Mean % tests passed",
    f.cards["Mean % tests passed"],
    t.meanReward === null ? "–" : `${Math.round(t.meanReward * 100)}%`,
  );
  check("Started", f.started, t.startedAt ? utc(t.startedAt) : "not yet");
  check("Ended", f.ended, t.endedAt ? utc(t.endedAt) : t.startedAt ? "not yet" : "–");
  if (t.endedAt && t.startedAt)
    check("Duration", seconds(f.duration ?? ""), Math.round((t.endedAt.getTime() - t.startedAt.getTime()) / 1000));
  if (expectedState === "running")
    check("pace's episodes left", /(\d+) (?:episodes )?left/.exec(f.pace ?? "")?.[1], String(s.toPlay + s.playing));
  else check("pace", f.pace, null);
  check(
    "training data: finished episodes",
    /^Works on: (\d+) finished episode/.exec(f.pairsInput ?? "")?.[1],
    String(s.done),
  );
  check(
    "episode table",
    f.rows.map((r) => [r[0], r[3], r[4], r[5]]),
    t.rows.map((r) => [`#${r.id}`, String(r.turns), r.reward === null ? "–" : r.reward.toFixed(3), r.status]),
  );
  check("pager", f.pager?.match(/\((\d+) episodes\)/)?.[1], String(s.total));
  return wrong;
}

/** Holds the run still, then expects the page to agree with the database, and Duration to tick while it runs. */
async function agreesWhileHeld(page: Page, runId: number, shot?: string): Promise<Truth> {
  gate.hold();
  await still(runId);
  // Read again at every try: an answer being scored when the gate closed may still land.
  await expect
    .poll(async () => disagreements(await figures(page), await truth(runId), "running"), {
      timeout: 15_000,
      intervals: [250],
    })
    .toEqual([]);
  const t = await truth(runId);
  const first = seconds((await figures(page)).duration ?? "");
  await expect
    .poll(async () => seconds((await figures(page)).duration ?? ""), { timeout: 5000 })
    .toBeGreaterThan(first);
  if (shot) await page.screenshot({ path: `${shots}/${shot}`, fullPage: true });
  gate.open();
  return t;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const tasks = fs
    .readFileSync(path.join(root, "samples", "backend.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { problem_description: string; ground_truth: string })
    .map((t) => ({ problemDescription: t.problem_description, groundTruth: t.ground_truth }));
  // Each answer a little late, so a 40-episode run lasts long enough to be watched.
  models = await startScriptedServer({ tasks, replyMs: 120 });
  gate = await startGate(models.url);
  studio = await startStudio(PORT);
});

test.afterAll(async () => {
  gate?.open();
  await studio?.stop();
  await gate?.close();
  await models?.close();
  if (studio) fs.rmSync(studio.dataDir, { recursive: true, force: true });
});

test("a run of 40 episodes watched on one page load: every figure agrees with the database at every moment, and the end reads as a reload", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto(`${studio.url}/runs/new`);
  await page.getByLabel("Tasks", { exact: true }).fill("ids=1-10");
  // Right and wrong answers in turn, so rewards and the mean are not all one value.
  await page.getByLabel("Agent server").fill(`${gate.url}#coin`);
  await page.getByLabel("Simulator server").fill(`${gate.url}#simulator`);
  await page.getByLabel("Best of k").fill("4");
  await page.getByLabel("Concurrency").fill("4");
  await page.getByLabel("Name (optional)").fill("forty");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page.getByRole("heading", { name: "forty" })).toBeVisible();
  const runId = Number(/\/runs\/(\d+)/.exec(page.url())![1]);
  // Set once: still there at the end means the page was never loaded again.
  await page.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));

  // Moments: as soon as an episode plays, then a quarter, then two thirds of the way.
  for (const [ended, shot] of [
    [0, undefined],
    [10, "run-page-mid.png"],
    [26, undefined],
  ] as const) {
    await expect
      .poll(
        async () => {
          const t = await truth(runId);
          return t.state.playing > 0 && t.state.done + t.state.failed >= ended;
        },
        { timeout: 120_000 },
      )
      .toBe(true);
    const t = await agreesWhileHeld(page, runId, shot);
    expect(t.state.total).toBe(TOTAL);
  }

  // The end, still on the same page load.
  await expect
    .poll(async () => (await truth(runId)).state.done + (await truth(runId)).state.failed, { timeout: 180_000 })
    .toBe(TOTAL);
  const end = await still(runId);
  await expect
    .poll(async () => disagreements(await figures(page), end, "finished"), { timeout: 15_000, intervals: [250] })
    .toEqual([]);
  expect(end.rows.some((r) => r.reward === 1) && end.rows.some((r) => r.reward === 0)).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
  // Finished: Duration stands still.
  const ended = await figures(page);
  await page.waitForTimeout(1500);
  expect((await figures(page)).duration).toBe(ended.duration);
  await page.screenshot({ path: `${shots}/run-page-end.png`, fullPage: true });

  await page.reload();
  await expect(page.getByTestId("run-state")).toHaveText("finished");
  const reloaded = await figures(page);
  expect(reloaded).toEqual(ended);

  // The same word on the home page, in the runs list and from the CLI.
  await page.goto(`${studio.url}/`);
  await expect(page.getByTestId("recent-runs").getByTestId("home-run").filter({ hasText: "forty" })).toContainText(
    "finished",
  );
  await expect(page.getByTestId("running-now")).toContainText("No run is being played");
  await page.goto(`${studio.url}/runs`);
  await expect(page.getByTestId("runs-table").getByRole("row", { name: /forty/ })).toContainText("finished");
  const listed = spawnSync(process.execPath, [path.join(root, "cli", "bin.mjs"), "runs", "list", "--json"], {
    cwd: root,
    env: { ...process.env, COLBENCH_DATA: studio.dataDir, DATABASE_URL: "" },
    encoding: "utf8",
  });
  expect(listed.status, listed.stderr).toBe(0);
  const row = listed.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { name: string; state: string })
    .find((r) => r.name === "forty");
  expect(row?.state).toBe("finished");
});
