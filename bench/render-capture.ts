// What a page costs Chromium to draw and to capture, and the render rate that caps any pool at on
// this machine, against the naive loop (bench/naive-render.ts) on the same pages in the same run:
// the same pages and geometry as bench/render.ts.
//
// Each of the first N official targets is loaded, one after another as a pool's slot loads them
// (each served only the Tailwind rules it can match), in a 1280x800 window and left SETTLE_MS to be
// drawn (parsed, styled, laid out, painted, rastered and composited once): the renderer's and GPU
// process's CPU over that time is the page's own drawing. Then it is captured R times as the pool
// captures it under studio-1280 (workers/render/slot.ts: Page.captureScreenshot, PNG with
// Chromium's fast zlib settings; a page taller or wider than the window beyond the viewport, with a
// clip of its size, for which Chromium lays out and rasters it again at that size), and the R
// captures averaged (the first alone is printed too: 0.2-1.0 CPU-ms more than the mean on this
// machine, 2026-11-29, so the repeats make the ceiling steadier and a little higher).
// A pool that spent nothing else (no browser-side loading, request answering or CDP traffic, no
// idle core) could render at most cores x 1000 / (drawing + capture) pages per second.
//
//   npx tsx bench/render-capture.ts [N=40] [--repeat R=5]

import { existsSync, readFileSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PROFILES } from "../lib/colbench/render-profile";
import { sharedColbenchDir } from "../lib/paths";
import { clipExtent } from "../workers/render/extent";
import type { CDPSession } from "puppeteer-core";
import { naivePage, naiveRender } from "./naive-render";
import { treeCpuByKind, treeCpuSeconds } from "./proc-cpu";

const NAIVE_PASSES = 3;
/** The naive loop's geometry, and so the pool's in bench/render.ts. */
const GEOMETRY = PROFILES["studio-1280"].geometry;
const SETTLE_MS = 100;
/** The page's own drawing happens in these processes (the browser's share is mostly the loading command). */
const DRAWING = new Set(["renderer", "gpu-process"]);

function args(): { n: number; repeat: number } {
  const argv = process.argv.slice(2);
  const i = argv.indexOf("--repeat");
  const repeat = i >= 0 ? Number(argv.splice(i, 2)[1]) : 5;
  const n = Number(argv[0] ?? 40);
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(repeat) || repeat < 1)
    throw new Error("usage: bench/render-capture.ts [N=40] [--repeat R=5]");
  return { n, repeat };
}

/** What drawing and capturing the pages cost Chromium, per page, and the rate that caps a pool at. */
export interface Ceiling {
  pages: number;
  /** Pages larger than the window (captured beyond it). */
  larger: number;
  repeat: number;
  cores: number;
  /** CPU-ms per page by kind of process, largest first. */
  draw: ReadonlyArray<readonly [string, number]>;
  capture: ReadonlyArray<readonly [string, number]>;
  drawCpuMs: number;
  captureCpuMs: number;
  /** Each page's first capture alone, CPU-ms per page by kind of process (the captures above are its average with the repeats). */
  firstCapture: ReadonlyArray<readonly [string, number]>;
  firstCaptureCpuMs: number;
  captureWallMs: number;
  /** cores x 1000 / (drawing + capture). */
  pagesPerS: number;
}

/**
 * Loads pages one after another in one Chromium as a slot loads them and adds up each page's
 * drawing and its capture (repeated `repeat` times, averaged). Pages may come in several calls of
 * measure(), so that bench/render.ts can take turns with the pool: the ceiling then sees the same
 * moments of the machine as the pool does, not a later hour.
 */
export class CeilingMeter {
  private readonly drawing = new Map<string, number>();
  private readonly capturing = new Map<string, number>();
  /** Each page's first capture alone: the one a pool pays for. */
  private readonly firstCapturing = new Map<string, number>();
  private pages = 0;
  private captures = 0;
  private captureMs = 0;
  private larger = 0;

  private constructor(
    private readonly measured: Awaited<ReturnType<typeof naivePage>>,
    private readonly pid: number,
    private readonly cdp: CDPSession,
    private readonly repeat: number,
  ) {}

  static async start(executable: string, repeat = 5): Promise<CeilingMeter> {
    // Drawing and capturing are measured as cheaply as the pool draws: each page served only the
    // Tailwind rules it can match, pictures kept (the pool's answers).
    const measured = await naivePage(executable, { subsetTailwind: true, memoizeImages: true });
    const pid = measured.browser.process()?.pid;
    if (pid === undefined) {
      await measured.browser.close();
      throw new Error("no browser process to measure");
    }
    return new CeilingMeter(measured, pid, await measured.page.createCDPSession(), repeat);
  }

  /** Draws and captures `pages`; counted unless `warmup`. */
  async measure(pages: readonly string[], warmup = false): Promise<void> {
    for (const html of pages) {
      let before = treeCpuByKind(this.pid);
      this.measured.responder.begin(html);
      await this.measured.page.setContent(html, { waitUntil: "load" });
      await settle();
      if (!warmup) this.add(this.drawing, before);
      const { cssContentSize } = await this.cdp.send("Page.getLayoutMetrics");
      // Clipped to the profile's largest capture, as a slot clips it.
      const { width, height } = clipExtent(
        { width: Math.ceil(cssContentSize.width), height: Math.ceil(cssContentSize.height) },
        GEOMETRY,
      );
      const fits = width <= GEOMETRY.width && height <= GEOMETRY.viewportHeight;
      const params = fits
        ? { format: "png" as const, optimizeForSpeed: true }
        : {
            format: "png" as const,
            optimizeForSpeed: true,
            captureBeyondViewport: true,
            clip: { x: 0, y: 0, width, height, scale: 1 },
          };
      before = treeCpuByKind(this.pid);
      let t = performance.now();
      await this.cdp.send("Page.captureScreenshot", params);
      let ms = performance.now() - t;
      // The first capture's CPU is read between the captures; its /proc walk is not timed.
      const first = treeCpuByKind(this.pid);
      if (!warmup) this.add(this.firstCapturing, before, first);
      t = performance.now();
      for (let r = 1; r < this.repeat; r++) await this.cdp.send("Page.captureScreenshot", params);
      ms += performance.now() - t;
      if (warmup) continue;
      this.add(this.capturing, before);
      this.pages++;
      if (!fits) this.larger++;
      this.captureMs += ms;
      this.captures += this.repeat;
    }
    // Nothing left on show while the others take their turns (a page may animate).
    await this.measured.page.setContent("<!doctype html>");
  }

  /** Closes the browser; the ceiling the pages measured so far give. */
  async finish(): Promise<Ceiling> {
    // What the browser does on its own meanwhile (timers, its network service) is not the pages'.
    const idle = new Map<string, number>();
    const before = treeCpuByKind(this.pid);
    await sleepFor(SETTLE_MS * this.pages);
    this.add(idle, before);
    await this.measured.browser.close();

    const perPage = (spent: Map<string, number>, count: number, only?: Set<string>) =>
      [...spent]
        .filter(([kind]) => !only || only.has(kind))
        .map(([kind, s]) => [kind, (Math.max(s - (only ? (idle.get(kind) ?? 0) : 0), 0) / count) * 1000] as const)
        .filter(([, ms]) => ms > 0.05)
        .sort((a, b) => b[1] - a[1]);
    const sum = (parts: ReadonlyArray<readonly [string, number]>) => parts.reduce((total, [, ms]) => total + ms, 0);
    const draw = perPage(this.drawing, this.pages, DRAWING);
    const capture = perPage(this.capturing, this.captures);
    const firstCapture = perPage(this.firstCapturing, this.pages);
    const cores = os.availableParallelism();
    const drawCpuMs = sum(draw);
    const captureCpuMs = sum(capture);
    return {
      pages: this.pages,
      larger: this.larger,
      repeat: this.repeat,
      cores,
      draw,
      capture,
      drawCpuMs,
      captureCpuMs,
      firstCapture,
      firstCaptureCpuMs: sum(firstCapture),
      captureWallMs: this.captureMs / this.captures,
      pagesPerS: (cores * 1000) / (drawCpuMs + captureCpuMs),
    };
  }

  private add(into: Map<string, number>, before: Map<string, number>, after = treeCpuByKind(this.pid)): void {
    for (const [kind, cpu] of after) into.set(kind, (into.get(kind) ?? 0) + cpu - (before.get(kind) ?? 0));
  }
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const settle = () => sleepFor(SETTLE_MS);

/** Pages drawn first and not counted, here and by bench/render.ts: a fresh browser's first pages cost several times more (fonts, caches). */
export const WARMUP = 5;

/** All of `pages` measured in one go (bench/render-capture.ts's own run), after a warm-up on the first of them. */
export async function measureCeiling(executable: string, pages: readonly string[], repeat = 5): Promise<Ceiling> {
  const meter = await CeilingMeter.start(executable, repeat);
  await meter.measure(pages.slice(0, WARMUP), true);
  await meter.measure(pages);
  return meter.finish();
}

/** "kind ms, kind ms" */
export const showCpu = (parts: ReadonlyArray<readonly [string, number]>) =>
  parts.map(([k, ms]) => `${k} ${ms.toFixed(1)}`).join(", ");

async function main(): Promise<void> {
  const file = path.join(sharedColbenchDir(), "frontend_test.jsonl");
  if (!existsSync(file)) {
    console.error(
      `bench/render-capture: ${file} is absent (the ColBench test sets live in ../shared/colbench); nothing to measure.`,
    );
    process.exit(2);
  }
  const { n, repeat } = args();
  const pages = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .slice(0, n)
    .map((l) => (JSON.parse(l) as { ground_truth: string }).ground_truth);
  const executable = process.env.BENCH_NAIVE_CHROMIUM ?? "/usr/bin/chromium";
  const ceiling = await measureCeiling(executable, pages, repeat);

  // The naive loop on the same pages, its whole process tree's CPU included.
  const naive = await naivePage(executable);
  const naivePid = naive.browser.process()?.pid;
  if (naivePid === undefined) throw new Error("no naive browser process to measure");
  for (const html of pages.slice(0, 5)) await naiveRender(naive.page, html);
  const cpuBefore = treeCpuSeconds(naivePid) ?? 0;
  const t = performance.now();
  for (let pass = 0; pass < NAIVE_PASSES; pass++) for (const html of pages) await naiveRender(naive.page, html);
  const naiveS = (performance.now() - t) / 1000;
  const naiveCpu = ((treeCpuSeconds(naivePid) ?? 0) - cpuBefore) / (NAIVE_PASSES * pages.length);
  await naive.browser.close();

  const { cores, drawCpuMs, captureCpuMs } = ceiling;
  const naiveRate = (NAIVE_PASSES * pages.length) / naiveS;
  console.log(
    `${pages.length} official targets in a ${GEOMETRY.width}x${GEOMETRY.viewportHeight} window, ${ceiling.larger} of them larger (captured beyond it); ${cores} cores`,
  );
  console.log(
    `drawing a page (load, then ${SETTLE_MS} ms): ${drawCpuMs.toFixed(1)} CPU-ms (${showCpu(ceiling.draw)}; the browser's loading not counted)`,
  );
  console.log(
    `capturing it once drawn: ${captureCpuMs.toFixed(1)} CPU-ms (${showCpu(ceiling.capture)}), ${ceiling.captureWallMs.toFixed(1)} ms wall, ${repeat} captures each; the first alone ${ceiling.firstCaptureCpuMs.toFixed(1)} (${showCpu(ceiling.firstCapture)})`,
  );
  console.log(
    `naive: ${naiveRate.toFixed(1)} pages/s (${(naiveCpu * 1000).toFixed(1)} CPU-ms/page), same pages, ${NAIVE_PASSES} passes`,
  );
  console.log(
    `ceiling: ${ceiling.pagesPerS.toFixed(1)} pages/s for a pool that spent nothing but drawing and capturing = ${(ceiling.pagesPerS / naiveRate).toFixed(2)}x the naive loop` +
      ` (a page may cost ${((cores * 1000) / (4 * naiveRate)).toFixed(1)} CPU-ms for 4x)`,
  );
  console.log(
    JSON.stringify({
      pages: pages.length,
      larger: ceiling.larger,
      repeat,
      cores,
      draw_cpu_ms: Number(drawCpuMs.toFixed(2)),
      capture_cpu_ms: Number(captureCpuMs.toFixed(2)),
      capture_cpu_ms_by_process: Object.fromEntries(ceiling.capture.map(([k, ms]) => [k, Number(ms.toFixed(2))])),
      naive_pages_per_s: Number(naiveRate.toFixed(2)),
      ceiling_pages_per_s: Number(ceiling.pagesPerS.toFixed(2)),
      ceiling_ratio: Number((ceiling.pagesPerS / naiveRate).toFixed(2)),
    }),
  );
}

// Run as a script; imported (bench/render.ts), it only lends measureCeiling.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url))
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
