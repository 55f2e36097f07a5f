// Does the studio stay fast on a 1000-episode run? Builds two runs in one fresh data folder, a
// large one (1000 episodes of 6 turns, the shape of a full ColBench backend run) and its peer with
// 10 episodes, starts the built studio on it and times the pages and APIs a person opens, on both.
// A ratio near 1 means the page does not grow with the run.
//
//   npm run build && npx tsx bench/studio-pages.ts [episodes=1000] [repeats=15]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../lib/db/open";
import { storeFor } from "../lib/store";
import { processOwner } from "../lib/runs/owner";
import { projectRoot, sharedColbenchDir } from "../lib/paths";
import { createRun } from "../lib/runs/create";
import { startStudio } from "../e2e/studio";

const episodes = Number(process.argv[2] ?? 1000);
const repeats = Number(process.argv[3] ?? 15);
if (!fs.existsSync(path.join(projectRoot, ".next", "BUILD_ID"))) {
  console.error("bench/studio-pages: build the studio first (npm run build)");
  process.exit(2);
}
const official = path.join(sharedColbenchDir(), "backend_test.jsonl");
const taskFile = fs.existsSync(official) ? official : path.join(projectRoot, "samples", "backend.jsonl");
if (!fs.existsSync(official)) console.log(`note: ${official} is absent; using the project's samples with several samples per task`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-bench-pages-"));
const db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
const store = storeFor(db.prisma);
await store.tasks.import({ file: taskFile, benchmark: "backend", name: "bench" });
const taskCount = (await store.tasks.counts()).backend;
const spec = { baseUrl: "http://127.0.0.1:9/v1", model: "bench" };

async function fill(name: string, n: number): Promise<number> {
  const bestOf = Math.ceil(n / taskCount);
  const run = await createRun(store, { benchmark: "backend", selector: "all", limit: Math.ceil(n / bestOf), bestOf, agent: spec, simulator: spec, name });
  await store.episodes.ensure(run.id, run.config.taskIds, bestOf);
  const rows = await store.episodes.unfinished(run.id);
  for (const [i, { id }] of rows.entries()) {
    await store.episodes.claim(id, processOwner(), 60_000);
    for (let t = 0; t < 6; t++) {
      await store.episodes.appendTurn(id, {
        index: t,
        role: t % 2 === 0 ? "simulator" : "agent",
        content: t === 5 ? "I WANT TO ANSWER:\ndef f(x):\n    return x\n" : `turn ${t}: ${"words ".repeat(40)}`,
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
console.log(`made ${episodes} + 10 episodes (6 turns each) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
await db.close();

const studio = await startStudio(3290 + Math.floor(Math.random() * 100), dir);
async function time(url: string): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < repeats + 2; i++) {
    const t0 = performance.now();
    const response = await fetch(studio.url + url);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    if (i >= 2) samples.push(performance.now() - t0); // the first two warm Next's route caches
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
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
  ];
  console.log(`median of ${repeats} requests each; large = ${episodes} episodes, peer = 10 episodes in the same studio`);
  console.log("page                              large ms   peer ms   ratio");
  for (const [label, url] of pages) {
    const a = await time(url(big, bigEpisode));
    const b = await time(url(small, smallEpisode));
    console.log(`${label.padEnd(32)} ${a.toFixed(1).padStart(9)} ${b.toFixed(1).padStart(9)} ${(a / b).toFixed(2).padStart(7)}`);
  }
  console.log("(runs list and leaderboard cover every run at once, so their two columns are the same page)");
} finally {
  await studio.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
