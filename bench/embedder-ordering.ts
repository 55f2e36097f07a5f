// Does an image embedder rank designs as a person would? On ColBench target pages P (field
// ground_truth of ../shared/colbench/frontend_test.jsonl), rendered by the project's pool:
//
//   cos(P, P) = 1 > cos(P, reword(P)) > cos(P, breakLayout(P)) > cos(P, an unrelated target)
//
// counted with two choices of unrelated target (the next one, and a seeded random one of the
// range), and for each further variant of lib/scoring/testing/page-variants.ts whether it lands where a
// person would put it: below the reworded page and above the unrelated one. A variant counts only
// where it visibly changes the render (at least 0.5% of the pixels differ by more than 24 in a
// channel, or the size differs). Also: how long one embedding takes (PNG decoding apart).
//
//   npx tsx bench/embedder-ordering.ts [--from 0] [--to 200] [--embedder default] [--cache DIR] [--json FILE]
//
// Renders are content-addressed and kept in --cache (default bench/out/renders), so a second run
// only embeds. --embedder takes any name createEmbedder knows (clip-vit-b32 takes --clip, a folder or hub id).

import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { projectRoot, sharedColbenchDir } from "../lib/paths";
import { mulberry32 } from "../lib/scoring/metrics/compare";
import { createEmbedder } from "../lib/scoring/frontend/embedders";
import type { EmbedderName } from "../lib/colbench/run-config";
import { PAGE_VARIANTS, type PageVariant } from "../lib/scoring/testing/page-variants";
import { defaultEmbedding } from "../lib/scoring/frontend/embedders/default";
import { decodePng, type RgbaImage } from "../lib/scoring/frontend/png";
import { RenderPool } from "../lib/scoring/frontend/render";
import { cosine } from "../lib/scoring/frontend/similarity";

function args() {
  const argv = process.argv.slice(2);
  const opt = (name: string, fallback?: string) => {
    const i = argv.indexOf(name);
    return i < 0 ? fallback : argv[i + 1];
  };
  return {
    from: Number(opt("--from", "0")),
    to: Number(opt("--to", "200")),
    embedder: opt("--embedder", "default") as EmbedderName,
    clip: opt("--clip"),
    cache: opt("--cache", path.join(projectRoot, "bench", "out", "renders"))!,
    json: opt("--json"),
  };
}

// A seeded generator (the bootstrap's) keeps the random unrelated targets the same every run.
const rng = mulberry32;

const VARIANTS = Object.keys(PAGE_VARIANTS) as PageVariant[];

async function main() {
  const opts = args();
  const targets = readFileSync(path.join(sharedColbenchDir(), "frontend_test.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { ground_truth: string }).ground_truth);
  const tasks = Array.from({ length: opts.to - opts.from }, (_, i) => opts.from + i);
  const next = (t: number) => (t + 1) % targets.length;
  const draw = rng(opts.from * 7919 + opts.to);
  const random = new Map(
    tasks.map((t) => {
      let r = t;
      while (r === t) r = opts.from + Math.floor(draw() * tasks.length);
      return [t, r];
    }),
  );

  const embedder = await createEmbedder(opts.embedder, { clipPath: opts.clip });
  const pool = await RenderPool.start({ cache: opts.cache });
  const pngs = new Map<string, Buffer>();
  const pages: [string, string][] = [];
  for (const t of tasks) {
    pages.push([`${t}`, targets[t]!]);
    for (const v of VARIANTS) pages.push([`${t}:${v}`, PAGE_VARIANTS[v](targets[t]!)]);
  }
  for (const t of new Set(tasks.map(next))) if (!tasks.includes(t)) pages.push([`${t}`, targets[t]!]);
  const started = Date.now();
  let rendered = 0;
  let failed = 0;
  await Promise.all(
    pages.map(async ([key, html]) => {
      const r = await pool.render(html);
      if (r.status !== "ok") failed++;
      if (!r.cached) rendered++;
      pngs.set(key, r.png);
      if ((rendered + 1) % 50 === 0) process.stderr.write(`\r${pngs.size}/${pages.length} pages, ${rendered} rendered`);
    }),
  );
  await pool.close();
  process.stderr.write(
    `\r${pages.length} pages (${rendered} rendered in ${((Date.now() - started) / 1000).toFixed(0)} s, ${failed} not ok)\n`,
  );

  /** Share of pixels that differ by more than 24 in some channel (1 where the sizes differ). */
  const changedShare = (a: RgbaImage, b: RgbaImage) => {
    if (a.width !== b.width || a.height !== b.height) return 1;
    let n = 0;
    for (let i = 0; i < a.data.length; i += 4) {
      if (
        Math.abs(a.data[i]! - b.data[i]!) > 24 ||
        Math.abs(a.data[i + 1]! - b.data[i + 1]!) > 24 ||
        Math.abs(a.data[i + 2]! - b.data[i + 2]!) > 24
      )
        n++;
    }
    return n / (a.width * a.height);
  };
  const change = new Map<string, number>();
  for (const t of tasks) {
    const page = decodePng(pngs.get(`${t}`)!);
    for (const v of VARIANTS) change.set(`${t}:${v}`, changedShare(page, decodePng(pngs.get(`${t}:${v}`)!)));
  }

  const vectors = new Map<string, Float32Array>();
  let embedMs = 0;
  for (const [key, png] of pngs) {
    const t0 = performance.now();
    vectors.set(key, await embedder.embed(png));
    embedMs += performance.now() - t0;
  }
  const cos = (a: string, b: string) => cosine(vectors.get(a)!, vectors.get(b)!);

  const report: Record<string, unknown> = { embedder: embedder.id, from: opts.from, to: opts.to };
  const lines: string[] = [];
  for (const [name, other] of [
    ["next", next],
    ["random", (t: number) => random.get(t)!],
  ] as const) {
    const misses: string[] = [];
    for (const t of tasks) {
      const s = [
        cos(`${t}`, `${t}`),
        cos(`${t}`, `${t}:reword`),
        cos(`${t}`, `${t}:breakLayout`),
        cos(`${t}`, `${other(t)}`),
      ];
      if (!(Math.abs(s[0]! - 1) < 1e-6 && s[0]! >= s[1]! && s[1]! > s[2]! && s[2]! > s[3]!))
        misses.push(
          `${t} (${s
            .slice(1)
            .map((x) => x.toFixed(3))
            .join(" ")})`,
        );
    }
    report[`order_${name}`] = { held: tasks.length - misses.length, of: tasks.length, misses };
    lines.push(
      `itself > reworded > layout broken > unrelated (${name}): ${tasks.length - misses.length}/${tasks.length}${misses.length ? `; misses: ${misses.join(", ")}` : ""}`,
    );
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
  for (const v of VARIANTS) {
    const changed = tasks.filter((t) => change.get(`${t}:${v}`)! >= 0.005);
    const below = changed.filter((t) => v === "reword" || cos(`${t}`, `${t}:${v}`) < cos(`${t}`, `${t}:reword`));
    const above = changed.filter((t) => cos(`${t}`, `${t}:${v}`) > cos(`${t}`, `${next(t)}`));
    const vsBroken = changed.filter((t) => cos(`${t}`, `${t}:${v}`) > cos(`${t}`, `${t}:breakLayout`));
    const m = mean(changed.map((t) => cos(`${t}`, `${t}:${v}`)));
    const shares = tasks.map((t) => change.get(`${t}:${v}`)!).sort((a, b) => a - b);
    report[v] = {
      changed: changed.length,
      belowReword: below.length,
      aboveUnrelated: above.length,
      aboveBroken: vsBroken.length,
      mean: m,
      minChangedShare: shares[0],
    };
    lines.push(
      `${v.padEnd(16)} changes ${changed.length}/${tasks.length} renders (pixels changed: least ${(100 * shares[0]!).toFixed(1)}%, median ${(100 * shares[shares.length >> 1]!).toFixed(1)}%); mean cos ${m.toFixed(3)}; < reworded ${below.length}, > unrelated (next) ${above.length}, > layout broken ${vsBroken.length}`,
    );
  }
  lines.push(`unrelated (next): mean cos ${mean(tasks.map((t) => cos(`${t}`, `${next(t)}`))).toFixed(3)}`);
  const msEach = embedMs / pngs.size;
  lines.push(`embed() (PNG decoding included): ${msEach.toFixed(1)} ms a page on average over ${pngs.size} renders`);
  report.msPerEmbedding = msEach;
  if (opts.embedder === "default") {
    // The default embedder's own time, apart from decoding, on the shortest and the tallest target.
    const images = tasks
      .map((t) => ({ png: pngs.get(`${t}`)!, img: decodePng(pngs.get(`${t}`)!) }))
      .sort((a, b) => a.img.height - b.img.height);
    for (const { png, img } of [images[0]!, images.at(-1)!]) {
      const time = (f: () => unknown) => {
        for (let k = 0; k < 3; k++) f();
        const t0 = performance.now();
        for (let k = 0; k < 10; k++) f();
        return (performance.now() - t0) / 10;
      };
      const decode = time(() => decodePng(png));
      const features = time(() => defaultEmbedding(img));
      lines.push(`${img.width}x${img.height}: decoding ${decode.toFixed(1)} ms, embedding ${features.toFixed(1)} ms`);
      report[`ms_${img.width}x${img.height}`] = { decode, embed: features };
    }
  }
  console.log(`${embedder.id} on targets ${opts.from}..${opts.to - 1}\n${lines.join("\n")}`);
  if (opts.json) writeFileSync(opts.json, `${JSON.stringify(report, null, 2)}\n`);
}

await main();
