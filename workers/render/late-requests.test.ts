import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sharedColbenchDir } from "../../lib/paths";
import { mayRequestAfterLoad } from "./late-requests";

describe("mayRequestAfterLoad", () => {
  it("is true for what styling, layout or a resize may still ask for", () => {
    for (const html of [
      `<div style="background-image:url('https://picsum.photos/id/1/200/300')"></div>`,
      `<style>@media (min-height: 900px) { body { background: URL ( x.png ) } }</style>`,
      `<div style="background-image:image-set('a.png' 1x)"></div>`,
      `<style>@import "x.css";</style>`,
      `<style>.a { background: \\75 rl(x.png) }</style>`,
      `<div style="background: u&#114;l(x.png)"></div>`,
      `<img src="a.png" loading="lazy">`,
      `<body background="tile.png">`,
      `<video poster="p.png"></video>`,
      `<svg><image href="a.png"/></svg>`,
      `<picture><source srcset="a.png"><img src="b.png"></picture>`,
      `<input type = 'image' src="go.png">`,
      `<input type="&#105;mage" src="go.png">`,
    ])
      expect(mayRequestAfterLoad(html), html).toBe(true);
  });

  it("is false for markup whose every request the load event waits for", () => {
    for (const html of [
      `<html><head><link href="https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css" rel="stylesheet"></head>` +
        `<body class="bg-gray-100"><img src="https://picsum.photos/id/48/400/300" alt="a"><input type="text" placeholder="Name"></body></html>`,
      `<p style="color: red; background: #fff">Terms &amp; conditions</p>`,
    ])
      expect(mayRequestAfterLoad(html), html).toBe(false);
  });

  const file = path.join(sharedColbenchDir(), "frontend_test.jsonl");
  // The real test set lives outside the project (../shared/colbench); without it there is nothing to count.
  it.skipIf(!existsSync(file))(
    "leaves most ColBench targets unwatched, and watches every one with a CSS picture",
    () => {
      const pages = readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => (JSON.parse(l) as { ground_truth: string }).ground_truth);
      const watched = pages.filter(mayRequestAfterLoad);
      expect(watched.length).toBeLessThan(pages.length / 4);
      for (const html of pages) if (/url\(/i.test(html)) expect(mayRequestAfterLoad(html)).toBe(true);
    },
  );
});
