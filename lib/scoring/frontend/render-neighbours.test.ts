import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { BrowserName } from "../../colbench/render-profile";
import { HOSTILE_PAGES, ordinaryPages } from "../testing/hostile-pages";
import { defaultExecutable } from "./browsers";
import { decodePng } from "./png";
import { RenderPool, type RenderResult } from "./render";

// Render isolation: one page's cost never fails or changes another's render. Pages written to
// cost as much as they can (a script-free CSS blur bomb, a huge layout, busy loops, memory that
// grows without end) share a pool with ten ordinary pages, all at once; every ordinary page must
// come out exactly as it does alone, in both engines. The hostile pages' own results only have to
// say what happened to them.

function samePixels(a: Buffer, b: Buffer): string | null {
  const x = decodePng(a);
  const y = decodePng(b);
  if (x.width !== y.width || x.height !== y.height) return `${x.width}x${x.height} vs ${y.width}x${y.height}`;
  let differing = 0;
  for (let i = 0; i < x.data.length; i++) if (x.data[i] !== y.data[i]) differing++;
  return differing ? `${differing} channel values differ` : null;
}

const describeOf = (r: RenderResult) =>
  `${r.status}${r.error ? ` (${r.error})` : ""}${r.retried ? `, retried after ${r.retried.status}${r.retried.error ? ` (${r.retried.error})` : ""}` : ""}`;

for (const engine of ["chromium", "firefox"] as BrowserName[]) {
  const executable = defaultExecutable(engine);
  const present = existsSync(executable);
  describe.skipIf(!present)(
    present ? `render isolation (${engine})` : `render isolation (${engine}; skipped: no ${executable})`,
    () => {
      it(
        "renders ten ordinary pages beside hostile ones exactly as it renders them alone",
        { timeout: 240_000 },
        async () => {
          const pool = await RenderPool.start({
            browser: engine,
            cache: false,
            concurrency: 3,
            deadlineMs: 3_000,
            captureTimeoutMs: 6_000,
            memoryLimitMb: 1024,
          });
          try {
            const ordinary = ordinaryPages();
            const alone: RenderResult[] = [];
            for (const html of ordinary) alone.push(await pool.render(html));
            for (const r of alone) expect(r.status, describeOf(r)).toBe("ok");

            // Hostile pages first in the queue, each followed by ordinary ones, so that every ordinary
            // page is rendered while some hostile page is at work.
            const names = Object.keys(HOSTILE_PAGES);
            const jobs: { name: string; html: string; ordinary: number | null }[] = [];
            let next = 0;
            for (const name of names) {
              jobs.push({ name, html: HOSTILE_PAGES[name]!, ordinary: null });
              for (let k = 0; k < 2 && next < ordinary.length; k++, next++)
                jobs.push({ name: `ordinary ${next}`, html: ordinary[next]!, ordinary: next });
            }
            while (next < ordinary.length)
              jobs.push({ name: `ordinary ${next}`, html: ordinary[next]!, ordinary: next++ });
            const results = await Promise.all(jobs.map((j) => pool.render(j.html)));

            const report = jobs.map((j, i) => `${j.name}: ${describeOf(results[i]!)}`);
            console.log(`render isolation (${engine}):\n  ${report.join("\n  ")}`);
            for (const [i, job] of jobs.entries()) {
              const r = results[i]!;
              if (job.ordinary === null) {
                // A hostile page's render says why it is not a clean one, and counts only after a second try in a fresh browser.
                if (r.status !== "ok") {
                  expect(r.error, job.name).toBeTruthy();
                  expect(r.retried, job.name).toBeDefined();
                }
                continue;
              }
              expect(r.status, `${job.name}: ${describeOf(r)}`).toBe("ok");
              expect(samePixels(r.png, alone[job.ordinary]!.png), job.name).toBeNull();
            }
          } finally {
            await pool.close();
          }
        },
      );
    },
  );
}
