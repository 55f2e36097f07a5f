import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { BrowserName } from "../../colbench/render-profile";
import { HOSTILE_PAGES, ordinaryPages } from "../testing/hostile-pages";
import { defaultExecutable } from "./browsers";
import { decodePng } from "./png";
import { RenderPool, type RenderResult } from "./render";
import type { RenderSidecar } from "./render-cache";

// A render blanked by its neighbour must never be stored as "ok" nor cached. Pages are written into
// a reused document, so whatever a page leaves pending in it (a meta refresh's timer, a navigation
// on its way) may land on the page written after it in the same lane: the ordinary page is then
// captured as the document it was navigated to (an empty one, a 1366x8 white strip, or Chromium's
// error page), called "ok" and cached under its id. The pages below do what the issue's hostile answers did (memory that grows without
// end, refreshes to about:srcdoc, to an entity-encoded data: URL the old regex let through, to
// about:blank and to the page itself, and a 3.9 MB table); each is queued ahead of ordinary pages
// at concurrency 3, five rounds in each engine. Every ordinary render must then be the pixels it
// has alone, or failed with the reason; every render called "ok" has something drawn on it, and a
// hostile page's shows its own heading (a capture after it navigated itself away is a failed render
// too); every file in the cache is such a render, with the record of how it was verified.

/** Every hostile page shows a heading in this colour: a render of it called "ok" that lacks it is a capture of another document. */
const MARK = [0x11, 0x22, 0x33] as const;
const heading = (name: string) => `<h1 style="font:bold 32px sans-serif;color:#123">${name}</h1>`;

const refresh = (name: string, content: string) =>
  `<html><head><meta http-equiv="refresh" content="${content}"></head><body>${heading(name)}</body></html>`;

function hugeTable(bytes: number): string {
  const rows: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const row = `<tr><td>${i}</td><td>row ${i} of a table too large to be an answer</td><td>${(i * 7919) % 10007}</td></tr>`;
    rows.push(row);
    size += row.length;
  }
  return `<html><body>${heading("table")}<table border="1">${rows.join("")}</table></body></html>`;
}

const NEIGHBOURS: Record<string, string> = {
  "3.9 MB table": hugeTable(3.9 * 2 ** 20),
  "memory growth": HOSTILE_PAGES["memory growth"]!.replace("<h1>memory</h1>", heading("memory")),
  "refresh to about:srcdoc after 1 s": refresh("srcdoc 1", "1;url=about:srcdoc"),
  "refresh to about:srcdoc at once": refresh("srcdoc 0", "0;url=about:srcdoc"),
  "refresh to an entity-encoded data:text/html URL after 1 s": refresh("data 1", "1;url=data:text/h&#116;ml,<p>x</p>"),
  "refresh to about:blank after 1 s": refresh("blank 1", "1;url=about:blank"),
  "reload after 1 s": refresh("reload 1", "1"),
  "reload after 2 s": refresh("reload 2", "2"),
};

const ROUNDS = 5;
/** Ordinary pages queued behind each hostile one, so that every hostile page has neighbours in its own lane. */
const BEHIND = 2;

function samePixels(a: Buffer, b: Buffer): string | null {
  const x = decodePng(a);
  const y = decodePng(b);
  if (x.width !== y.width || x.height !== y.height) return `${x.width}x${x.height} instead of ${y.width}x${y.height}`;
  let differing = 0;
  for (let i = 0; i < x.data.length; i++) if (x.data[i] !== y.data[i]) differing++;
  return differing ? `${differing} channel values differ` : null;
}

/** blank: nothing drawn on it, every pixel the same colour; marked: some pixel is MARK, a hostile page's heading. */
function inspect(png: Buffer): { blank: boolean; marked: boolean } {
  const { data } = decodePng(png);
  let blank = true;
  let marked = false;
  for (let i = 0; i < data.length && (blank || !marked); i += 4) {
    if (blank && (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2] || data[i + 3] !== data[3]))
      blank = false;
    if (!marked && data[i] === MARK[0] && data[i + 1] === MARK[1] && data[i + 2] === MARK[2]) marked = true;
  }
  return { blank, marked };
}

const describeOf = (r: RenderResult) =>
  `${r.status} ${r.width}x${r.height}${r.error ? ` (${r.error})` : ""}${r.retried ? `, retried after ${r.retried.status}${r.retried.error ? ` (${r.retried.error})` : ""}` : ""}`;

/** Invisible, so the pixels are those of the page alone; different each round, so no round reads another's cached render. */
const inRound = (html: string, round: number) => `${html}\n<!-- round ${round} -->`;

for (const engine of ["chromium", "firefox"] as BrowserName[]) {
  const executable = defaultExecutable(engine);
  const present = existsSync(executable);
  describe.skipIf(!present)(
    present ? `hostile neighbours (${engine})` : `hostile neighbours (${engine}; skipped: no ${executable})`,
    () => {
      const cacheDir = mkdtempSync(path.join(os.tmpdir(), `colbench-neighbours-${engine}-`));
      afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

      it(
        `cannot blank, shrink or navigate an ordinary page's render, nor get a bad image cached (${ROUNDS} rounds at concurrency 3)`,
        { timeout: 600_000 },
        async () => {
          const pool = await RenderPool.start({
            browser: engine,
            cache: cacheDir,
            concurrency: 3,
            deadlineMs: 3_000,
            captureTimeoutMs: 6_000,
            memoryLimitMb: 1024,
          });
          const started = Date.now();
          try {
            const ordinary = ordinaryPages();
            const alone: Buffer[] = [];
            for (const html of ordinary) {
              const r = await pool.render(html, { cache: false });
              expect(r.status, describeOf(r)).toBe("ok");
              alone.push(r.png);
            }

            const bad: string[] = [];
            let ordinaryRendered = 0;
            let ordinaryOk = 0;
            const okHostile = new Map<string, string>();
            // Decoded once per picture: a 1354x16384 capture of the table takes a while.
            const inspected = new Map<string, { blank: boolean; marked: boolean }>();
            const pictures = new Map<string, Buffer>();
            const look = (id: string, png: Buffer) => {
              if (!inspected.has(id)) inspected.set(id, inspect(png));
              return inspected.get(id)!;
            };
            const names = Object.keys(NEIGHBOURS);
            for (let round = 0; round < ROUNDS; round++) {
              const jobs: { name: string; html: string; ordinary: number | null }[] = [];
              let next = round;
              for (const name of names) {
                jobs.push({ name, html: inRound(NEIGHBOURS[name]!, round), ordinary: null });
                for (let k = 0; k < BEHIND; k++, next++) {
                  const i = next % ordinary.length;
                  jobs.push({ name: `ordinary ${i} after ${name}`, html: inRound(ordinary[i]!, round), ordinary: i });
                }
              }
              const roundStarted = Date.now();
              const results = await Promise.all(jobs.map((j) => pool.render(j.html)));
              for (const [i, job] of jobs.entries()) {
                const r = results[i]!;
                const where = `round ${round + 1}, ${job.name}: ${describeOf(r)}`;
                if (r.status === "ok") pictures.set(r.id, r.png);
                if (r.status === "ok" && look(r.id, r.png).blank) bad.push(`${where}: a blank image called ok`);
                if (r.status !== "ok" && !(r.error && r.retried))
                  bad.push(`${where}: not ok without saying why after a second try`);
                if (job.ordinary === null) {
                  if (r.status !== "ok") continue;
                  okHostile.set(r.id, job.name);
                  if (!look(r.id, r.png).marked)
                    bad.push(`${where}: called ok without its own heading, a capture of another document`);
                  continue;
                }
                ordinaryRendered++;
                if (r.status !== "ok") continue;
                ordinaryOk++;
                const differs = samePixels(r.png, alone[job.ordinary]!);
                if (differs) bad.push(`${where}: ${differs} from its render alone`);
              }
              console.log(
                `hostile neighbours (${engine}), round ${round + 1} (${Date.now() - roundStarted} ms):\n  ${jobs.map((j, i) => `${j.name}: ${describeOf(results[i]!)}`).join("\n  ")}`,
              );
            }

            // The cache: only renders known good, each with the record of how it was verified.
            const byId = new Map<string, number>();
            for (let round = 0; round < ROUNDS; round++)
              ordinary.forEach((html, i) => byId.set(pool.idFor(inRound(html, round)), i));
            let cached = 0;
            for (const sub of readdirSync(cacheDir)) {
              for (const file of readdirSync(path.join(cacheDir, sub)).filter((f) => f.endsWith(".json"))) {
                const meta = JSON.parse(readFileSync(path.join(cacheDir, sub, file), "utf8")) as RenderSidecar;
                const png = readFileSync(path.join(cacheDir, sub, `${meta.id}.png`));
                cached++;
                const what = byId.has(meta.id)
                  ? `ordinary ${byId.get(meta.id)}`
                  : (okHostile.get(meta.id) ?? "an unknown page");
                if (meta.status !== "ok") bad.push(`cache: ${what} stored as ${meta.status}`);
                if (!meta.verified) bad.push(`cache: ${what} without the record of how it was verified`);
                const seen = pictures.get(meta.id)?.equals(png) ? look(meta.id, png) : inspect(png);
                if (seen.blank) bad.push(`cache: ${what} is a blank image`);
                if (okHostile.has(meta.id) && !seen.marked)
                  bad.push(`cache: ${what} without its own heading, a capture of another document`);
                const i = byId.get(meta.id);
                if (i !== undefined) {
                  const differs = samePixels(png, alone[i]!);
                  if (differs) bad.push(`cache: ${what}: ${differs} from its render alone`);
                }
              }
            }
            console.log(
              `hostile neighbours (${engine}): ${ordinaryOk} of ${ordinaryRendered} ordinary renders ok, ${cached} renders cached, ${bad.length} problems, ${Math.round((Date.now() - started) / 1000)} s`,
            );
            expect(bad).toEqual([]);
            // Failing an ordinary page, with its reason, is allowed; failing them all would pass the checks above for nothing.
            expect(ordinaryOk).toBeGreaterThanOrEqual(0.9 * ordinaryRendered);
            expect(cached).toBeGreaterThan(0);
          } finally {
            await pool.close();
          }
        },
      );
    },
  );
}
