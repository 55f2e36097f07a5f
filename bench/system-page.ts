// How long the System page's checks hold the studio's event loop. The page runs `runDoctor` in the
// server process; every request (/api/health, labels, live views) waits for the longest stall.
//
//   npx tsx bench/system-page.ts [rounds=3]
//
// Three phases, each measured with a 10 ms timer (the lag a request would see) and
// perf_hooks.monitorEventLoopDelay: an idle loop; the checks as they run now (runDoctor, child
// processes with deadlines); and the synchronous probes the checks used to make (Chromium and
// Firefox --version, unshare for the renderer, Python's numpy import, postgres --version), called
// here the way they were, since the checks no longer can be.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { runDoctor } from "../lib/doctor";

interface Stalls {
  maxMs: number;
  p99Ms: number;
  p95Ms: number;
  tookMs: number;
}

/** Runs `work` while a 10 ms timer notes how late each of its ticks fires. */
async function measure(work: () => Promise<unknown>): Promise<Stalls> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  const lags: number[] = [];
  let expected = performance.now() + 10;
  const timer = setInterval(() => {
    const now = performance.now();
    lags.push(Math.max(0, now - expected));
    expected = now + 10;
  }, 10);
  histogram.enable();
  const started = performance.now();
  await work();
  const tookMs = performance.now() - started;
  // One more tick, so a stall at the very end is counted.
  await new Promise((resolve) => setTimeout(resolve, 20));
  histogram.disable();
  clearInterval(timer);
  lags.sort((a, b) => a - b);
  const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? 0;
  return { maxMs: Math.max(lags[lags.length - 1] ?? 0, histogram.max / 1e6), p99Ms: at(0.99), p95Ms: at(0.95), tookMs };
}

function oldSyncProbes(): void {
  const python = process.env.COLBENCH_PYTHON ?? "python3";
  spawnSync(process.env.COLBENCH_CHROMIUM || "/usr/bin/chromium", ["--version"], { encoding: "utf8", timeout: 20_000 });
  spawnSync("unshare", ["--net", "--", "true"], { stdio: "ignore", timeout: 5_000 });
  spawnSync(process.env.COLBENCH_FIREFOX || "/usr/bin/firefox-esr", ["--version"], {
    encoding: "utf8",
    timeout: 20_000,
  });
  spawnSync(
    python,
    [
      "-S",
      "-E",
      "-c",
      "import site, sys\nsys.path += [p for p in site.getsitepackages() if p not in sys.path]\nimport numpy\nprint(numpy.__version__)",
    ],
    { encoding: "utf8", timeout: 30_000 },
  );
  spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  const pgBin = fs.existsSync("/usr/lib/postgresql")
    ? fs.readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a))[0]
    : undefined;
  if (pgBin)
    spawnSync(path.join("/usr/lib/postgresql", pgBin, "bin", "postgres"), ["--version"], {
      encoding: "utf8",
      timeout: 10_000,
    });
}

const rounds = Number(process.argv[2] ?? 3);
// A data folder of its own: the database part reports "not created yet" instead of opening one.
process.env.COLBENCH_DATA = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-bench-system-"));
delete process.env.DATABASE_URL;
const open = () => Promise.reject(new Error("no database in this bench"));

const fmt = (s: Stalls) =>
  `max ${s.maxMs.toFixed(0).padStart(5)} ms  p99 ${s.p99Ms.toFixed(1).padStart(6)} ms  p95 ${s.p95Ms.toFixed(1).padStart(6)} ms  (${(s.tookMs / 1000).toFixed(1)} s)`;
const rows: Record<string, Stalls[]> = { idle: [], now: [], old: [] };
// The first report warms caches (module loads, the isolation probe); it is not counted.
await runDoctor({ open });
for (let round = 0; round < rounds; round++) {
  const now = await measure(() => runDoctor({ open }));
  rows.now!.push(now);
  rows.idle!.push(await measure(() => new Promise((resolve) => setTimeout(resolve, now.tookMs))));
  rows.old!.push(
    await measure(async () => {
      // The old checks awaited Python's sandbox and WebGPU too; only their synchronous part is replayed.
      await new Promise((resolve) => setImmediate(resolve));
      oldSyncProbes();
    }),
  );
}
const worst = (list: Stalls[], key: keyof Stalls) => Math.max(...list.map((s) => s[key]));
for (const [name, list] of Object.entries(rows)) for (const s of list) console.log(`${name.padEnd(4)}  ${fmt(s)}`);
const summary = {
  idle: { maxMs: worst(rows.idle!, "maxMs"), p99Ms: worst(rows.idle!, "p99Ms") },
  now: { maxMs: worst(rows.now!, "maxMs"), p99Ms: worst(rows.now!, "p99Ms") },
  old: { maxMs: worst(rows.old!, "maxMs"), p99Ms: worst(rows.old!, "p99Ms") },
};
console.log(
  `longest stall: now ${summary.now.maxMs.toFixed(0)} ms, idle ${summary.idle.maxMs.toFixed(0)} ms, old synchronous probes ${summary.old.maxMs.toFixed(0)} ms; ` +
    `now/idle ${(summary.now.maxMs / Math.max(1, summary.idle.maxMs)).toFixed(1)}x, old/now ${(summary.old.maxMs / Math.max(1, summary.now.maxMs)).toFixed(1)}x`,
);
fs.rmSync(process.env.COLBENCH_DATA, { recursive: true, force: true });
