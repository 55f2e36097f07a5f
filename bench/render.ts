// Render throughput: the project's pool (lib/scoring/frontend/render.ts, cache off) against a naive loop
// (one Puppeteer page: setContent, full-page screenshot) over the first N ColBench target pages,
// both answering outside requests the same way offline and showing pages the same way
// (PAGE_POLICY: settled animations, Chrome's default fonts), and against the ceiling
// (bench/render-capture.ts): what drawing and capturing the same pages costs the pool's own
// Chromium binary, and the rate that allows on this machine's cores. The pool renders all N pages
// as one batch, P times over; the naive loop and the ceiling take their turns between and around
// those passes, a (P+1)th of the pages each time, so a drift of the machine's speed (a fifth within
// an hour, seen here) falls on all three alike, and the pool's short passes (~6 s for 200 pages)
// are not one sample.
// Then it checks that the pool and the naive loop produced the same pixels on a sample of pages.
// It also prints where the pool's CPU went, per page, by kind of process (Chromium's browser,
// gpu-process, renderers, the zygote that reaps them, the worker).
//
//   npx tsx bench/render.ts [N=300] [--passes P=3] [--sample K=40] [--concurrency C=4] [--ceiling-pages M=N] [--out DIR]
//
// --out DIR keeps the pool's PNGs (DIR/NNNN.png) for looking at them.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sharedColbenchDir } from "../lib/paths";
import { decodePng } from "../lib/scoring/frontend/png";
import { DEFAULT_CONCURRENCY, RenderPool, type RenderResult } from "../lib/scoring/frontend/render";
import { defaultChromium } from "../lib/scoring/frontend/browsers";
import { naivePage, naiveRender } from "./naive-render";
import { CeilingMeter, showCpu, WARMUP } from "./render-capture";
import { machineTicks, treeCpuByKind, treeCpuSeconds } from "./proc-cpu";

function args() {
  const argv = process.argv.slice(2);
  const opt = (name: string) => {
    const i = argv.indexOf(name);
    if (i < 0) return undefined;
    const value = argv[i + 1];
    argv.splice(i, 2);
    return value;
  };
  const sample = Number(opt("--sample") ?? 40);
  const passes = Number(opt("--passes") ?? 3);
  const concurrency = Number(opt("--concurrency") ?? DEFAULT_CONCURRENCY);
  const out = opt("--out");
  const ceilingPages = opt("--ceiling-pages");
  const n = Number(argv[0] ?? 300);
  if (!Number.isInteger(n) || n < 1) throw new Error(`N must be a positive integer, got ${argv[0]}`);
  if (!Number.isInteger(passes) || passes < 1) throw new Error(`--passes must be a positive integer`);
  return { n, sample, passes, out, concurrency, ceilingPages: ceilingPages === undefined ? n : Number(ceilingPages) };
}

function samePixels(a: Uint8Array, b: Uint8Array): { same: boolean; detail: string } {
  const x = decodePng(a);
  const y = decodePng(b);
  if (x.width !== y.width || x.height !== y.height)
    return { same: false, detail: `${x.width}x${x.height} vs ${y.width}x${y.height}` };
  let differing = 0;
  for (let i = 0; i < x.data.length; i += 4) {
    if (
      x.data[i] !== y.data[i] ||
      x.data[i + 1] !== y.data[i + 1] ||
      x.data[i + 2] !== y.data[i + 2] ||
      x.data[i + 3] !== y.data[i + 3]
    )
      differing++;
  }
  return { same: differing === 0, detail: `${differing} of ${x.width * x.height} pixels differ` };
}

async function main(): Promise<void> {
  const file = path.join(sharedColbenchDir(), "frontend_test.jsonl");
  if (!existsSync(file)) {
    console.error(
      `bench/render: ${file} is absent (the ColBench test sets live in ../shared/colbench); nothing to measure.`,
    );
    process.exit(2);
  }
  const { n, sample, passes, out, concurrency, ceilingPages } = args();
  const pages = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .slice(0, n)
    .map((l) => (JSON.parse(l) as { ground_truth: string }).ground_truth);
  // The pool runs what the project runs ($COLBENCH_CHROMIUM or Debian's chromium); the naive
  // loop always Debian's chromium unless $BENCH_NAIVE_CHROMIUM says otherwise.
  // The naive loop is Puppeteer's fullPage capture, which is the studio-1280 profile's geometry.
  const pool = await RenderPool.start({ cache: false, concurrency, profile: "studio-1280" });
  const naive = await naivePage(process.env.BENCH_NAIVE_CHROMIUM ?? "/usr/bin/chromium");
  const meter = ceilingPages > 0 ? await CeilingMeter.start(defaultChromium()) : null;
  console.log(
    `${pages.length} pages, ${pool.browserVersion}, pool (${concurrency} pages, worker process) vs one naive Puppeteer page`,
  );
  const warm = pages.slice(0, WARMUP);
  await Promise.all(warm.map((h) => pool.render(h)));
  for (const h of warm) await naiveRender(naive.page, h);
  await meter?.measure(warm, true);

  const poolPngs = new Array<RenderResult>(pages.length);
  const naivePngs = new Array<Buffer>(pages.length);
  let poolMs = 0;
  /** Pages per second of each pass: the later passes meet pictures the first one already made (the worker keeps them). */
  const passRates: number[] = [];
  /** Every pass's results (poolPngs keeps the last pass's, for the pixel check). */
  const everyPoolResult: RenderResult[] = [];
  let naiveMs = 0;
  let poolCpu = 0;
  let naiveCpu = 0;
  // The machine's CPU while the pool ran (ticks of all cores): how much of it was idle, or spent by
  // processes outside the bench (which slows the pool's wall clock, never the ceiling's CPU count).
  let poolTicks = { busy: 0, idle: 0 };
  // CPU of each side's process tree plus this process's own share while that side runs.
  const cpuOf = (pid: number | undefined) => (pid === undefined ? 0 : (treeCpuSeconds(pid) ?? 0));
  const selfCpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const naivePid = naive.browser.process()?.pid;
  // Where the pool's CPU goes, by kind of process (browsers, compositors, renderers, the worker).
  const kinds = new Map<string, number>();
  const addKinds = (before: Map<string, number>, after: Map<string, number>) => {
    for (const [k, v] of after) kinds.set(k, (kinds.get(k) ?? 0) + v - (before.get(k) ?? 0));
  };
  // The pool renders all pages PASSES times; the peers take their turns between the passes and on
  // either side of them, a part of the pages each time, in alternating order, so that a drift of
  // the machine's speed that is steady over the run falls on all three alike.
  const peers = async (part: number) => {
    const start = Math.floor((part * pages.length) / (passes + 1));
    const end = Math.floor(((part + 1) * pages.length) / (passes + 1));
    const naiveTurn = async () => {
      const cpu = cpuOf(naivePid) + selfCpu();
      const t = performance.now();
      for (let i = start; i < end; i++) naivePngs[i] = await naiveRender(naive.page, pages[i]!);
      naiveMs += performance.now() - t;
      naiveCpu += cpuOf(naivePid) + selfCpu() - cpu;
      // Nothing left on show while the others take their turns (a page may animate).
      await naive.page.setContent("<!doctype html>");
    };
    // CPU per page, so how long the turn takes does not move it.
    // --ceiling-pages M: the first M/N of each part, so the ceiling's pages still come in every turn.
    const ceilingEnd = start + Math.ceil(((end - start) * ceilingPages) / pages.length);
    const ceilingTurn = async () => meter?.measure(pages.slice(start, ceilingEnd));
    for (const turn of part % 2 === 0 ? [naiveTurn, ceilingTurn] : [ceilingTurn, naiveTurn]) await turn();
    process.stderr.write(`peers ${end}/${pages.length} `);
  };
  // Each pass is one batch of all pages, as a scoring run hands them over: taking turns in small
  // chunks would leave the lanes idle at each chunk's end (3 points of the CPU in 50-page chunks).
  const poolPass = async () => {
    const cpu = cpuOf(pool.workerPid) + selfCpu();
    const kindsBefore = pool.workerPid === undefined ? new Map<string, number>() : treeCpuByKind(pool.workerPid);
    const ticks = machineTicks();
    const t = performance.now();
    const rendered = await Promise.all(pages.map((h) => pool.render(h)));
    const ms = performance.now() - t;
    poolMs += ms;
    passRates.push(pages.length / (ms / 1000));
    const ticksAfter = machineTicks();
    poolTicks = {
      busy: poolTicks.busy + ticksAfter.busy - ticks.busy,
      idle: poolTicks.idle + ticksAfter.idle - ticks.idle,
    };
    poolCpu += cpuOf(pool.workerPid) + selfCpu() - cpu;
    if (pool.workerPid !== undefined) addKinds(kindsBefore, treeCpuByKind(pool.workerPid));
    rendered.forEach((r, i) => (poolPngs[i] = r));
    everyPoolResult.push(...rendered);
    process.stderr.write("pool ");
  };
  for (let pass = 0; pass < passes; pass++) {
    await peers(pass);
    await poolPass();
  }
  await peers(passes);
  process.stderr.write("\n");
  await pool.close();
  await naive.browser.close();
  const ceiling = meter ? await meter.finish() : null;

  const poolRate = everyPoolResult.length / (poolMs / 1000);
  const naiveRate = pages.length / (naiveMs / 1000);
  const statuses = everyPoolResult.reduce<Record<string, number>>(
    (acc, r) => ((acc[r.status] = (acc[r.status] ?? 0) + 1), acc),
    {},
  );
  const aborted = everyPoolResult.reduce((s, r) => s + r.aborted, 0);
  const perPage = (cpu: number, count = pages.length) => ((cpu / count) * 1000).toFixed(1);
  console.log(
    `pool:  ${poolRate.toFixed(1)} pages/s (${passes} x ${pages.length} pages in ${(poolMs / 1000).toFixed(1)} s, ${perPage(poolCpu, everyPoolResult.length)} CPU-ms/page) statuses ${JSON.stringify(statuses)}, ${aborted} requests refused`,
  );
  console.log(`pool passes: ${passRates.map((r) => r.toFixed(1)).join(", ")} pages/s`);
  // Ticks are hundredths of a second of one core.
  const machineMs = (poolTicks.busy + poolTicks.idle) * 10;
  const othersMs = Math.max(poolTicks.busy * 10 - poolCpu * 1000, 0);
  console.log(
    `machine while the pool ran: ${((100 * poolCpu * 1000) / machineMs).toFixed(0)}% the pool, ${((100 * othersMs) / machineMs).toFixed(0)}% other processes, ${((100 * poolTicks.idle * 10) / machineMs).toFixed(0)}% idle`,
  );
  const breakdown = [...kinds].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  console.log(
    `pool CPU by process (ms/page): ${breakdown.map(([k, v]) => `${k} ${perPage(v, everyPoolResult.length)}`).join(", ")}`,
  );
  console.log(
    `naive: ${naiveRate.toFixed(1)} pages/s (${(naiveMs / 1000).toFixed(1)} s, ${perPage(naiveCpu)} CPU-ms/page)`,
  );
  console.log(`ratio: ${(poolRate / naiveRate).toFixed(2)}x`);
  if (ceiling) {
    console.log(
      `ceiling: ${ceiling.pagesPerS.toFixed(1)} pages/s = ${(ceiling.pagesPerS / naiveRate).toFixed(2)}x the naive loop` +
        ` (${ceiling.pages} pages, ${ceiling.cores} cores: drawing ${ceiling.drawCpuMs.toFixed(1)} CPU-ms [${showCpu(ceiling.draw)}]` +
        ` + capture ${ceiling.captureCpuMs.toFixed(1)} [${showCpu(ceiling.capture)}], the first alone ${ceiling.firstCaptureCpuMs.toFixed(1)})`,
    );
    console.log(`pool / ceiling: ${(poolRate / ceiling.pagesPerS).toFixed(2)}`);
  }

  if (out) {
    mkdirSync(out, { recursive: true });
    poolPngs.forEach((r, i) => writeFileSync(path.join(out, `${String(i).padStart(4, "0")}.png`), r.png));
  }

  const k = Math.min(sample, pages.length);
  const picked = Array.from({ length: k }, (_, i) => Math.floor((i * pages.length) / k));
  const mismatches: string[] = [];
  for (const i of picked) {
    const { same, detail } = samePixels(poolPngs[i]!.png, naivePngs[i]!);
    if (!same) mismatches.push(`page ${i}: ${detail}`);
  }
  console.log(`pixels: ${k - mismatches.length}/${k} sampled pages identical (RGBA)`);
  for (const m of mismatches) console.log(`  ${m}`);
  console.log(
    JSON.stringify({
      n: pages.length,
      pool_pages_per_s: Number(poolRate.toFixed(2)),
      naive_pages_per_s: Number(naiveRate.toFixed(2)),
      ratio: Number((poolRate / naiveRate).toFixed(2)),
      ...(ceiling
        ? {
            ceiling_pages_per_s: Number(ceiling.pagesPerS.toFixed(2)),
            ceiling_ratio: Number((ceiling.pagesPerS / naiveRate).toFixed(2)),
            pool_to_ceiling: Number((poolRate / ceiling.pagesPerS).toFixed(2)),
            ceiling_cpu_ms_per_page: Number((ceiling.drawCpuMs + ceiling.captureCpuMs).toFixed(1)),
          }
        : {}),
      pool_cpu_ms_per_page: Number(perPage(poolCpu, everyPoolResult.length)),
      naive_cpu_ms_per_page: Number(perPage(naiveCpu)),
      pixel_sample: k,
      pixel_identical: k - mismatches.length,
    }),
  );
  if (mismatches.length) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
