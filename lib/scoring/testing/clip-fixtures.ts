import { readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../../paths";

// The committed CLIP fixtures (written by make_clip_fixture.py with transformers) as the embedder
// tests of every device read them.

export const CLIP_FIXTURES = path.join(projectRoot, "lib", "scoring", "frontend", "embedders", "fixtures");
/** The tiny random CLIP checkpoint (config.json, model.safetensors). */
export const TINY_CLIP = path.join(CLIP_FIXTURES, "tiny-clip");

/** transformers' normalised embedding of one fixture picture by the tiny CLIP. */
export const expectedEmbedding = (
  JSON.parse(readFileSync(path.join(CLIP_FIXTURES, "expected.json"), "utf8")) as {
    embedding: { input: string; values: number[] };
  }
).embedding;

export const fixturePng = (name: string) => readFileSync(path.join(CLIP_FIXTURES, name));

/** The largest elementwise difference of two vectors of one length. */
export function maxAbs(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`lengths differ: ${a.length} and ${b.length}`);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}
