// Does the studio stay fast on a large run? Builds two runs in one fresh data folder, a large one
// (10,000 episodes of 10 turns: 100,000 turns, ten full ColBench backend runs' worth) and its peer
// with 10 episodes, starts the built studio on it and times the pages, APIs and searches a person
// opens, on both. A ratio near 1 means the page does not grow with the run. Then the run page and a
// search again, while 50 scripted annotators label beside them for 30 s (bench/labelling-load.ts):
// a studio shared by a team stays fast for the one reading runs. Turns say sentences of
// the official task descriptions (where ../shared/colbench is present), so searches meet real words.
//
//   npm run build && npx tsx bench/studio-pages.ts [episodes=10000] [repeats=20] [turns=10] [labelling seconds=30]
//   (COLBENCH_BENCH_PORT picks the studio's port)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../lib/db/open";
import { storeFor } from "../lib/store";
import { processOwner } from "../lib/runs/owner";
import { projectRoot, sharedColbenchDir } from "../lib/paths";
import { createRun } from "../lib/runs/create";
import { startStudio } from "../e2e/studio";
import { addUser } from "../lib/access/users";
import { describeTimes, percentile, prepareLabelling, runAnnotators, type LabellingSetup } from "./labelling-load";

const episodes = Number(process.argv[2] ?? 10_000);
const repeats = Number(process.argv[3] ?? 20);
const turnsPerEpisode = Number(process.argv[4] ?? 10);
const labellingSeconds = Number(process.argv[5] ?? 30);
if (!fs.existsSync(path.join(projectRoot, ".next", "BUILD_ID"))) {
  console.error("bench/studio-pages: build the studio first (npm run build)");
  process.exit(2);
}
const official = path.join(sharedColbenchDir(), "backend_test.jsonl");
const taskFile = fs.existsSync(official) ? official : path.join(projectRoot, "samples", "backend.jsonl");
if (!fs.existsSync(official))
  console.log(`note: ${official} is absent; using the project's samples with several samples per task`);

const RARE = "the zebra crossing budget counts twice";

interface DataSet {
  big: number;
  small: number;
  bigEpisode: number;
  smallEpisode: number;
  labelling: LabellingSetup | null;
  /** An admin's sign-in token: once the studio has users, pages need a signed-in viewer. */
  admin: string | null;
}

/** The large run, its peer and the side load's queue, made through the store in `dir`. */
async function makeDataSet(dir: string): Promise<DataSet> {
  const db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  const store = storeFor(db.prisma);
  await store.tasks.import({ file: taskFile, benchmark: "backend", name: "bench" });
  const taskCount = (await store.tasks.counts()).byBenchmark.backend;
  // Sentences people and models really write about these tasks.
  const sentences = fs
    .readFileSync(taskFile, "utf8")
    .trim()
    .split("\n")
    .flatMap((line) => (JSON.parse(line) as { problem_description: string }).problem_description.split(/(?<=[.?!])\s+/))
    .filter((s) => s.length > 20);
  let seed = 7;
  const pick = () => sentences[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % sentences.length]!;
  const spec = { baseUrl: "http://127.0.0.1:9/v1", model: "bench" };

  async function fill(name: string, n: number): Promise<number> {
    const bestOf = Math.ceil(n / taskCount);
    const run = await createRun(store, {
      benchmark: "backend",
      selector: "all",
      limit: Math.ceil(n / bestOf),
      bestOf,
      agent: spec,
      simulator: spec,
      name,
    });
    await store.episodes.ensure(run.id, run.config.taskIds, bestOf);
    const rows = await store.episodes.unfinished(run.id);
    for (const [i, { id }] of rows.entries()) {
      await store.episodes.claim(id, processOwner(), 60_000);
      for (let t = 0; t < turnsPerEpisode; t++) {
        const last = t === turnsPerEpisode - 1;
        await store.episodes.appendTurn(id, {
          index: t,
          role: t % 2 === 0 ? "simulator" : "agent",
          content: last
            ? "I WANT TO ANSWER:\ndef f(x):\n    return x\n"
            : i === 7 && t === 3
              ? `${pick()} Does ${RARE}?`
              : `${pick()} ${pick()}`,
          prompt: t % 2 === 1 ? [{ role: "user", content: "prompt ".repeat(300) }] : undefined,
          usage: { promptTokens: 300, completionTokens: 40 },
        });
      }
      const reward = (i % 10) / 9;
      await store.episodes.finish(id, { answer: "def f(x):\n    return x\n", reward, details: { tests: [] } });
    }
    return run.id;
  }

  const started = performance.now();
  const big = await fill("bench-large", episodes);
  const small = await fill("bench-small", 10);
  const bigEpisode = (await store.runs.episodes(big, { pageSize: 1, page: episodes })).items[0]!.id;
  const smallEpisode = (await store.runs.episodes(small, { pageSize: 1, page: 10 })).items[0]!.id;
  console.log(
    `made ${episodes} + 10 episodes (${turnsPerEpisode} turns each) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  // The side load's queue: 1500 pairs of two small runs of their own, overlap 3, 50 annotators.
  const labelling =
    labellingSeconds > 0
      ? await prepareLabelling(db, { annotators: 50, pairs: 1500, overlap: 3, prefix: "side" })
      : null;
  const admin = labelling ? (await addUser(store, "bench-admin", "admin")).token : null;
  await db.close();
  return { big, small, bigEpisode, smallEpisode, labelling, admin };
}

// COLBENCH_BENCH_PAGES_CACHE=DIR keeps the data set made once and times a fresh copy of it on later
// runs: two versions of the studio compared on the same rows, without making 100,000 turns twice.
const cache = process.env.COLBENCH_BENCH_PAGES_CACHE;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-bench-pages-"));
let data: DataSet;
if (cache && fs.existsSync(path.join(cache, "data-set.json"))) {
  fs.cpSync(path.join(cache, "data"), dir, { recursive: true });
  data = JSON.parse(fs.readFileSync(path.join(cache, "data-set.json"), "utf8")) as DataSet;
  console.log(`timing a copy of the data set kept in ${cache}`);
} else {
  data = await makeDataSet(dir);
  if (cache) {
    fs.mkdirSync(cache, { recursive: true });
    fs.cpSync(dir, path.join(cache, "data"), { recursive: true });
    fs.writeFileSync(path.join(cache, "data-set.json"), JSON.stringify(data));
  }
}
const { big, small, bigEpisode, smallEpisode, labelling, admin } = data;

// The studio analyses its folder a few seconds after it starts; here at once, so that every page
// is timed with the planner statistics a studio that has been up a while has.
const studio = await startStudio(
  Number(process.env.COLBENCH_BENCH_PORT ?? 3290 + Math.floor(Math.random() * 100)),
  dir,
  { COLBENCH_DB_ANALYZE_AFTER_MS: "0" },
);
await new Promise((resolve) => setTimeout(resolve, 3000));
const headers: Record<string, string> = {};
// A sign-in link only asks to confirm; the confirming POST starts the session.
if (admin)
  headers.cookie = (
    await fetch(`${studio.url}/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `token=${encodeURIComponent(admin)}`,
      redirect: "manual",
    })
  ).headers
    .get("set-cookie")!
    .split(";")[0]!;
/** Median and 95th percentile of `repeats` requests, after two that warm Next's route caches. */
async function time(url: string): Promise<{ median: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < repeats + 2; i++) {
    const t0 = performance.now();
    const response = await fetch(studio.url + url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    if (i >= 2) samples.push(performance.now() - t0); // the first two warm Next's route caches
  }
  samples.sort((a, b) => a - b);
  return {
    median: samples[Math.floor(samples.length / 2)]!,
    p95: samples[Math.min(samples.length - 1, Math.ceil(samples.length * 0.95) - 1)]!,
  };
}

try {
  const pages: Array<[string, (run: number, episode: number) => string]> = [
    ["run page (first 50 episodes)", (r) => `/runs/${r}`],
    ["run page, last page", (r) => `/runs/${r}?page=${Math.ceil(episodes / 50)}`],
    ["run page, score filter", (r) => `/runs/${r}?score=partial`],
    ["episodes API (200 a page)", (r) => `/api/runs/${r}/episodes?pageSize=200`],
    ["episode replay", (_r, e) => `/episodes/${e}`],
    ["runs list", () => `/runs`],
    ["leaderboard", () => `/leaderboard`],
    ["compare (run with itself)", (r) => `/compare?a=${r}&b=${r}`],
    ["search, a rare phrase", (r) => `/search?q=${encodeURIComponent(`"${RARE}"`)}&run=${r}`],
    ["search, a common word", (r) => `/search?q=function&run=${r}`],
    ["search, two words", (r) => `/search?q=${encodeURIComponent("discount members")}&run=${r}`],
    ["search, words and a reward range", (r) => `/search?q=list&minReward=0.5&run=${r}`],
  ];
  console.log(
    `${repeats} requests each; large = ${episodes} episodes (${episodes * turnsPerEpisode} turns), peer = 10 episodes in the same studio`,
  );
  console.log("page                              large median / p95 ms    peer median / p95 ms   p95 ratio");
  for (const [label, url] of pages) {
    const a = await time(url(big, bigEpisode));
    const b = await time(url(small, smallEpisode));
    const cell = (t: { median: number; p95: number }) =>
      `${t.median.toFixed(1).padStart(8)} / ${t.p95.toFixed(1).padStart(7)}`;
    console.log(`${label.padEnd(32)} ${cell(a)}       ${cell(b)}   ${(a.p95 / b.p95).toFixed(2).padStart(7)}`);
  }
  // Search without a run filter reaches every turn of both runs.
  const everywhere = await time(`/search?q=${encodeURIComponent("discount members")}`);
  console.log(
    `search of all ${episodes * turnsPerEpisode + 10 * turnsPerEpisode} turns, two words: median ${everywhere.median.toFixed(1)} ms, p95 ${everywhere.p95.toFixed(1)} ms`,
  );
  console.log("(runs list and leaderboard cover every run at once, so their two columns are the same page)");
  if (labelling) {
    // The same two pages, one request after another, while the annotators label beside them.
    const beside: Record<string, number[]> = { run: [], search: [] };
    const pagesBeside: Array<[keyof typeof beside, string]> = [
      ["run", `/runs/${big}`],
      ["search", `/search?q=function&run=${big}`],
    ];
    let loading = true;
    const load = runAnnotators(studio.url, labelling, {
      seconds: labellingSeconds,
      think: [200, 600],
      drain: false,
      alive: () => studio.process.exitCode === null,
      studioPid: studio.process.pid,
    }).finally(() => (loading = false));
    await new Promise((resolve) => setTimeout(resolve, 2000)); // the annotators sign in and take their first pairs
    for (let i = 0; loading; i++) {
      const [name, url] = pagesBeside[i % 2]!;
      const t0 = performance.now();
      const response = await fetch(studio.url + url, { headers });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      if (loading) beside[name]!.push(performance.now() - t0);
    }
    const run = await load;
    console.log(
      `\nwhile 50 annotators label for ${labellingSeconds} s beside it (reading each pair 200-600 ms; ${run.labelledInWindow} labels, ${(run.labelledInWindow / labellingSeconds).toFixed(1)}/s, refused ${run.refused}):`,
    );
    console.log(`  run page (first 50 episodes):  ${describeTimes(beside.run!)}`);
    console.log(`  search, a common word:         ${describeTimes(beside.search!)}`);
    console.log(`  label -> next pair:            ${describeTimes(run.timed)}`);
    console.log(`  GET /api/health:               ${describeTimes(run.health)}`);
    const cpuInWindow = run.cpuInWindow;
    if (cpuInWindow) {
      const share = (cpu: number) => `${Math.round((cpu / labellingSeconds) * 100)}%`;
      console.log(
        `  the studio's threads busy in the window: main ${share(cpuInWindow.main)}, the database's ${share(cpuInWindow.busiestOther)}, others ${share(cpuInWindow.rest)} (of one core each; this machine has ${os.cpus().length})`,
      );
    }
    if (run.clientCpuInWindow !== undefined && run.machineBusyInWindow !== undefined)
      console.log(
        `  beside it on the same machine, this bench's own annotators and page requests: ${Math.round((run.clientCpuInWindow / labellingSeconds) * 100)}% of a core; all ${os.cpus().length} cores ${Math.round(run.machineBusyInWindow * 100)}% busy`,
      );
    const ratio = (xs: number[]) => (percentile(xs, 0.95) / percentile(run.health, 0.95)).toFixed(2);
    console.log(
      `  p95 against the bare health request's: run page ${ratio(beside.run!)}, search ${ratio(beside.search!)}`,
    );
  }
} finally {
  await studio.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
