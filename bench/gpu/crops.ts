import fs from "node:fs";
import path from "node:path";
import { projectRoot, sharedColbenchDir } from "../../lib/paths";
import { clipResizeCrop } from "../../lib/scoring/frontend/embedders/clip-preprocess";
import { decodePng } from "../../lib/scoring/frontend/png";
import { RenderPool } from "../../lib/scoring/frontend/render";

// Real screenshots for the GPU CLIP bench: the first N ColBench frontend targets rendered by the
// studio's pool (cached in bench/out/renders, as bench/clip.ts does) and cut to what CLIP sees
// before rescaling: Pillow's bicubic resize and the centre crop, 224x224 RGB, N of them back to back.

export async function renderCrops(n: number, size = 224): Promise<Uint8Array> {
  const jsonl = path.join(sharedColbenchDir(), "frontend_test.jsonl");
  if (!fs.existsSync(jsonl))
    throw new Error(
      `${jsonl}: the ColBench frontend targets are needed for the screenshots (or pass --screenshots from a machine that has them)`,
    );
  const targets = fs
    .readFileSync(jsonl, "utf8")
    .trim()
    .split("\n")
    .slice(0, n)
    .map((l) => (JSON.parse(l) as { ground_truth: string }).ground_truth);
  const pool = await RenderPool.start({ cache: path.join(projectRoot, "bench", "out", "renders") });
  try {
    const pngs = await Promise.all(targets.map((html) => pool.render(html).then((r) => r.png)));
    const out = new Uint8Array(pngs.length * size * size * 3);
    pngs.forEach((png, i) => out.set(clipResizeCrop(decodePng(png), size).data, i * size * size * 3));
    return out;
  } finally {
    await pool.close();
  }
}
