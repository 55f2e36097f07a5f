// How far the studio's frontend rewards are from the published scorer's, and what closes the gap.
//
// The published scorer renders in headless Firefox (Selenium, 1366x768 window, Marionette's full
// screenshot); the reference here is the render pool in Firefox under the `paper` profile, whose
// screenshots equal Marionette's pixel for pixel (lib/scoring/frontend/render-firefox.test.ts).
// Each pair is an official target page (ground_truth of ../shared/colbench/frontend_test.jsonl,
// images included) and an answer made from it by one of the page variants of
// lib/scoring/testing/page-variants.ts (reworded, layout undone, other hues, pictures removed, a
// section fewer, a serif face, sections reversed, dark mode; one per pair, in turn), so rewards
// spread from near 1 downwards as real answers' do. Every page is rendered under both engines and
// both profiles; for each condition against the reference it prints the image sizes that differ,
// the cosine between a page's embedding there and in the reference, and how much each pair's
// reward moves.
//
//   npx tsx bench/render-parity.ts [--pairs 120] [--from 0] [--clip PATH] [--placeholder-photo FILE] [--json FILE] [--manifest FILE]
//
// --manifest FILE writes where every render lies (per condition, targets then answers), for
// bench/render_parity_clip.py: CLIP ViT-B/32 in PyTorch with the published scorer's CLIPProcessor,
// from a checkpoint or with seeded random weights, much faster on a CPU than the TypeScript CLIP.
//
// The embedder is CLIP ViT-B/32 from a checkpoint when one is given (--clip or $COLBENCH_CLIP),
// else the weight-free default. With --placeholder-photo, Chromium and Firefox under paper are
// also rendered with the published photo (and the reference takes it too). Renders are cached in
// bench/out/renders, so a second run only embeds.

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { projectRoot, sharedColbenchDir } from "../lib/paths";
import type { BrowserName, ProfileName } from "../lib/colbench/render-profile";
import { createEmbedder } from "../lib/scoring/frontend/embedders";
import { pngSize } from "../lib/scoring/frontend/png";
import { RenderPool } from "../lib/scoring/frontend/render";
import { cosine } from "../lib/scoring/frontend/similarity";
import { PAGE_VARIANTS, type PageVariant } from "../lib/scoring/testing/page-variants";

const VARIANTS: PageVariant[] = [
  "reword",
  "breakLayout",
  "swapHues",
  "removeImages",
  "dropSection",
  "serifFont",
  "reverseSections",
  "darkMode",
];

function args() {
  const argv = process.argv.slice(2);
  const opt = (name: string, fallback?: string) => {
    const i = argv.indexOf(name);
    return i < 0 ? fallback : argv[i + 1];
  };
  const pairs = Number(opt("--pairs", "120"));
  if (!Number.isInteger(pairs) || pairs < 1) throw new Error(`--pairs must be a positive integer`);
  return {
    pairs,
    from: Number(opt("--from", "0")),
    clip: opt("--clip") ?? process.env.COLBENCH_CLIP,
    photo: opt("--placeholder-photo"),
    json: opt("--json"),
    manifest: opt("--manifest"),
  };
}

interface Condition {
  name: string;
  browser: BrowserName;
  profile: ProfileName;
  photo: boolean;
}

interface Rendered {
  files: string[];
  sizes: string[];
  embeddings: Float32Array[];
  seconds: number;
  statuses: Record<string, number>;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { mean, median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s[s.length - 1]! };
};

async function main(): Promise<void> {
  const opts = args();
  const lines = readFileSync(path.join(sharedColbenchDir(), "frontend_test.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim());
  const targets = lines
    .slice(opts.from, opts.from + opts.pairs)
    .map((l) => (JSON.parse(l) as { ground_truth: string }).ground_truth);
  const answers = targets.map((t, i) => PAGE_VARIANTS[VARIANTS[i % VARIANTS.length]!](t));
  const pages = [...targets, ...answers];
  const embedder = await createEmbedder(opts.clip ? "clip-vit-b32" : "default", { clipPath: opts.clip });
  const withImages = targets.filter((t) => /picsum\.photos/.test(t)).length;
  console.log(
    `${targets.length} pairs (targets ${opts.from}-${opts.from + targets.length - 1}, ${withImages} with pictures), embedder ${embedder.id}`,
  );

  const reference: Condition = {
    name: "firefox paper (reference)",
    browser: "firefox",
    profile: "paper",
    photo: !!opts.photo,
  };
  const conditions: Condition[] = [
    reference,
    { name: "chromium paper", browser: "chromium", profile: "paper", photo: !!opts.photo },
    { name: "chromium studio-1280 (before)", browser: "chromium", profile: "studio-1280", photo: false },
    { name: "firefox studio-1280", browser: "firefox", profile: "studio-1280", photo: false },
    ...(opts.photo
      ? [
          {
            name: "chromium paper, generated placeholders",
            browser: "chromium",
            profile: "paper",
            photo: false,
          } as Condition,
        ]
      : []),
  ];

  const results = new Map<string, Rendered>();
  for (const c of conditions) {
    const pool = await RenderPool.start({
      browser: c.browser,
      profile: c.profile,
      placeholderPhoto: c.photo ? opts.photo! : null,
      cache: path.join(projectRoot, "bench", "out", "renders"),
      deadlineMs: 15_000,
    });
    const started = performance.now();
    const renders = await Promise.all(pages.map((p) => pool.render(p)));
    const seconds = (performance.now() - started) / 1000;
    const statuses: Record<string, number> = {};
    for (const r of renders) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    console.log(
      `${c.name}: ${pool.browserVersion}, profile ${JSON.stringify(pool.profile)}, ${renders.length} pages in ${seconds.toFixed(1)} s (${renders.filter((r) => r.cached).length} cached), ${JSON.stringify(statuses)}`,
    );
    await pool.close();
    const embeddings: Float32Array[] = [];
    for (const r of renders) embeddings.push(await embedder.embed(r.png));
    const cacheDir = path.join(projectRoot, "bench", "out", "renders");
    // Every render is cached (status ok) under its id; a failed one has no file and is written beside them.
    const files = renders.map((r) => {
      const file = path.join(cacheDir, r.id.slice(0, 2), `${r.id}.png`);
      if (r.status !== "ok") mkdirSync(path.dirname(file), { recursive: true });
      if (r.status !== "ok") writeFileSync(file.replace(/\.png$/, ".failed.png"), r.png);
      return r.status === "ok" ? file : file.replace(/\.png$/, ".failed.png");
    });
    results.set(c.name, {
      files,
      sizes: renders.map((r) => Object.values(pngSize(r.png)).join("x")),
      embeddings,
      seconds,
      statuses,
    });
  }

  const ref = results.get(reference.name)!;
  const n = targets.length;
  const reward = (r: Rendered, i: number) => cosine(r.embeddings[i]!, r.embeddings[n + i]!);
  const refRewards = targets.map((_, i) => reward(ref, i));
  const report: Record<string, unknown> = {
    pairs: n,
    from: opts.from,
    embedder: embedder.id,
    reference: reference.name,
    conditions: {},
  };
  console.log(`\nreference ${reference.name}: mean reward ${stats(refRewards).mean.toFixed(4)}`);
  for (const c of conditions.slice(1)) {
    const r = results.get(c.name)!;
    const differ = pages.map((_, k) => k).filter((k) => r.sizes[k] !== ref.sizes[k]);
    const heightGap = differ.map((k) =>
      Math.abs(Number(r.sizes[k]!.split("x")[1]) - Number(ref.sizes[k]!.split("x")[1])),
    );
    const same = stats(pages.map((_, k) => cosine(r.embeddings[k]!, ref.embeddings[k]!)));
    const rewards = targets.map((_, i) => reward(r, i));
    const moved = stats(rewards.map((x, i) => Math.abs(x - refRewards[i]!)));
    console.log(`\n${c.name} against the reference:`);
    console.log(
      `  image sizes differ on ${differ.length} of ${pages.length} pages${differ.length ? ` (height off by median ${stats(heightGap).median} px, at most ${stats(heightGap).max} px)` : ""}`,
    );
    for (const k of differ.slice(0, 8))
      console.log(`    ${k < n ? "target" : "answer"} ${opts.from + (k % n)}: ${r.sizes[k]} vs ${ref.sizes[k]}`);
    console.log(
      `  the same page's embeddings: cosine mean ${same.mean.toFixed(4)}, median ${same.median.toFixed(4)}, min ${same.min.toFixed(4)}`,
    );
    console.log(
      `  rewards move by ${moved.mean.toFixed(4)} on average, ${moved.median.toFixed(4)} median, ${moved.max.toFixed(4)} at most (mean reward ${stats(rewards).mean.toFixed(4)})`,
    );
    (report.conditions as Record<string, unknown>)[c.name] = {
      sizesDiffer: differ.length,
      pages: pages.length,
      heightGapMedian: differ.length ? stats(heightGap).median : 0,
      heightGapMax: differ.length ? stats(heightGap).max : 0,
      embeddingCosine: same,
      rewardMove: moved,
      meanReward: stats(rewards).mean,
      renderSeconds: r.seconds,
    };
  }
  if (opts.json) writeFileSync(opts.json, `${JSON.stringify(report, null, 2)}\n`);
  if (opts.manifest) {
    const conditionsOut = Object.fromEntries(conditions.map((c) => [c.name, results.get(c.name)!.files]));
    writeFileSync(
      opts.manifest,
      `${JSON.stringify({ pairs: n, from: opts.from, reference: reference.name, conditions: conditionsOut }, null, 1)}\n`,
    );
  }
}

await main();
