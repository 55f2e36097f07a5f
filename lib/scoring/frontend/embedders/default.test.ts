import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultChromium, RenderPool } from "../render";
import { cosine } from "../similarity";
import { DefaultEmbedder, defaultEmbedding } from "./default";
import { breakLayout, reword } from "../../testing/page-variants";

// The weight-free embedder must rank as a person would: the same design reworded above the same
// content with its layout undone (lib/scoring/testing/page-variants.ts), above an unrelated design.

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const FRONTEND = path.resolve(REPO, "../shared/colbench/frontend_test.jsonl");
const chromium = defaultChromium();

const TW = '<link href="https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css" rel="stylesheet">';
const SAMPLES = [
  `<html>${TW}<body class="bg-gray-100"><header class="bg-blue-600 text-white p-6 flex justify-between"><h1 class="text-3xl font-bold">Harbor Dental</h1><nav class="space-x-4"><a>Team</a><a>Prices</a><a>Book</a></nav></header>
<section class="flex p-8 space-x-8"><div class="w-1/2"><h2 class="text-2xl font-bold mb-2">Gentle care</h2><p>Check-ups, cleaning and braces for the whole family, six days a week.</p></div><img class="w-1/2" src="https://picsum.photos/id/5/600/300"></section>
<footer class="bg-gray-800 text-gray-100 text-center p-4">Harbor Dental, Quay Street 4</footer></body></html>`,
  `<html>${TW}<body class="bg-white"><div class="container mx-auto p-6"><h1 class="text-4xl text-center text-green-700 font-serif mb-6">Fern &amp; Moss Garden Shop</h1>
<div class="grid grid-cols-3 gap-4"><div class="bg-green-100 p-4 rounded"><h3 class="font-bold">Seeds</h3><p>Heirloom tomatoes, beans and herbs.</p></div><div class="bg-green-100 p-4 rounded"><h3 class="font-bold">Tools</h3><p>Hand forged trowels and shears.</p></div><div class="bg-green-100 p-4 rounded"><h3 class="font-bold">Workshops</h3><p>Saturday mornings in the glasshouse.</p></div></div>
<div class="mt-8 bg-yellow-200 p-6 text-center text-xl">Spring sale: a fifth off all bulbs</div></div></body></html>`,
  `<html>${TW}<body class="bg-gray-900 text-gray-100"><nav class="p-4 border-b border-gray-700 flex space-x-6"><span class="font-bold text-pink-400">night.log</span><a>Posts</a><a>About</a></nav>
<main class="max-w-2xl mx-auto p-8 space-y-8"><article><h2 class="text-2xl text-pink-300">Notes on quiet software</h2><p class="text-gray-400">Published in March</p><p>Software that does one thing and then gets out of the way is rarer than it should be.</p></article>
<article><h2 class="text-2xl text-pink-300">A year of film photos</h2><p class="text-gray-400">Published in January</p><p>Twelve rolls, one camera, and what the misses taught me.</p></article></main></body></html>`,
];

describe("default embedder on images", () => {
  it("gives unit vectors, and 1 for an image with itself", () => {
    const data = new Uint8Array(64 * 100 * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 37) % 256));
    const v = defaultEmbedding({ width: 64, height: 100, data });
    expect(cosine(v, v)).toBeCloseTo(1, 6);
    expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    const blank = defaultEmbedding({ width: 64, height: 100, data: new Uint8Array(64 * 100 * 4).fill(255) });
    expect(cosine(blank, blank)).toBeCloseTo(1, 6);
    expect(cosine(v, blank)).toBeLessThan(0.9);
  });
});

describe.skipIf(!existsSync(chromium))("default embedder ranks rendered designs", () => {
  let pool: RenderPool;
  const embedder = new DefaultEmbedder();
  // A render that timed out or failed (a busy machine: the whole test suite runs beside this) is
  // a fallback image, which says nothing about the embedder: render it again, up to three times.
  const embed = async (html: string) => {
    let render = await pool.render(html, { cache: false });
    for (let attempt = 1; render.status !== "ok" && attempt < 3; attempt++)
      render = await pool.render(html, { cache: false });
    expect(render.status, `${render.error ?? ""} (${html.slice(0, 60)}...)`).toBe("ok");
    return embedder.embed(render.png);
  };

  beforeAll(async () => {
    pool = await RenderPool.start({ cache: false });
  });
  afterAll(async () => {
    await pool?.close();
  });

  async function ranks(page: string, unrelated: string): Promise<number[]> {
    const [self, reworded, broken, other] = await Promise.all(
      [page, reword(page), breakLayout(page), unrelated].map(embed),
    );
    const s = [cosine(self!, self!), cosine(self!, reworded!), cosine(self!, broken!), cosine(self!, other!)];
    expect(s[0]).toBeCloseTo(1, 6);
    expect(s[1]).toBeGreaterThan(s[2]!);
    expect(s[2]).toBeGreaterThan(s[3]!);
    return s;
  }

  SAMPLES.forEach((page, i) => {
    it(`sample page ${i}: itself > reworded > layout broken > unrelated`, async () => {
      await ranks(page, SAMPLES[(i + 1) % SAMPLES.length]!);
    });
  });

  // Skipped where the ColBench test sets are absent (they live beside the repository, in ../shared).
  const shared = existsSync(FRONTEND);
  describe.skipIf(!shared)(
    shared ? "on ColBench target pages" : `on ColBench target pages (skipped: no ${FRONTEND})`,
    () => {
      const targets = shared
        ? readFileSync(FRONTEND, "utf8")
            .split("\n")
            .filter((l) => l.trim())
            .map((l) => (JSON.parse(l) as { ground_truth: string }).ground_truth)
        : [];
      // Every one of the first 200 targets (about a minute on two cores), rendered under the default
      // profile (paper: 1366 wide, as tall as the content), each against two unrelated targets: the
      // next one (often made from the same template, so structurally close) and a seeded random one
      // of the 200. At most two misses (1%) are tolerated against each. Measured when the paper
      // profile became the default: against the next target, tasks 100 (a real-estate split screen)
      // against 101 and 103 (an art gallery) against 104, where the broken page (0.882, 0.848) falls
      // just below the unrelated one (0.900, 0.861); against the random one, task 18 against 101.
      // Under the studio-1280 geometry the embedder was tuned on, none against the next and two
      // against the random one (tasks 86 and 126; see embedders/README.md). bench/embedder-ordering.ts
      // measures more targets.
      const COUNT = 200;
      it(
        `ranks itself > reworded > layout broken > an unrelated target, on the first ${COUNT} targets`,
        { timeout: 240_000 },
        async () => {
          const pages = targets.slice(0, COUNT + 1);
          const [self, reworded, broken] = await Promise.all(
            [pages, pages.slice(0, COUNT).map(reword), pages.slice(0, COUNT).map(breakLayout)].map((set) =>
              Promise.all(set.map(embed)),
            ),
          );
          let seed = 12345;
          const misses = { next: [] as string[], random: [] as string[] };
          for (let task = 0; task < COUNT; task++) {
            seed = (seed * 1103515245 + 12345) % 2 ** 31;
            const random = (task + 1 + (seed % (COUNT - 1))) % COUNT; // never the task itself
            const own = self![task]!;
            const s = [cosine(own, own), cosine(own, reworded![task]!), cosine(own, broken![task]!)];
            expect(s[0]).toBeCloseTo(1, 6);
            for (const [name, other] of [
              ["next", task + 1],
              ["random", random],
            ] as const) {
              const u = cosine(own, self![other]!);
              if (!(s[1]! > s[2]! && s[2]! > u))
                misses[name].push(
                  `task ${task} (unrelated: ${other}): ${[...s, u].map((x) => x.toFixed(3)).join(" > ")}`,
                );
            }
          }
          expect(misses.next.length, misses.next.join("\n")).toBeLessThanOrEqual(2);
          expect(misses.random.length, misses.random.join("\n")).toBeLessThanOrEqual(2);
        },
      );
    },
  );
});
