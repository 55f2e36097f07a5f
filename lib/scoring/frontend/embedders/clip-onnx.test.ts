import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodePng } from "../png";
import { ClipEmbedder } from "./clip";
import { OnnxClipEmbedder } from "./clip-onnx";
import { clipPreprocess } from "./clip-preprocess";
import { embedImage, loadClipVision } from "./clip-vision";
import { createEmbedder } from "./index";
import {
  CLIP_FIXTURES as FIXTURES,
  TINY_CLIP as TINY,
  expectedEmbedding,
  fixturePng as png,
  maxAbs,
} from "../../testing/clip-fixtures";

// The cpu device (ONNX Runtime on a graph built from the checkpoint) against the TypeScript
// reference and against transformers itself (fixtures/expected.json, make_clip_fixture.py), on the
// committed tiny random CLIP; and, where $COLBENCH_CLIP_FULL holds the full-size random ViT-B/32
// the fixture script writes (not committed: 350 MB), on that too.

const expected = { embedding: expectedEmbedding };

const scratch = mkdtempSync(path.join(os.tmpdir(), "colbench-onnx-"));
const saved = process.env.COLBENCH_ONNX_CACHE;
beforeAll(() => {
  process.env.COLBENCH_ONNX_CACHE = path.join(scratch, "graphs");
});
afterAll(() => {
  if (saved === undefined) delete process.env.COLBENCH_ONNX_CACHE;
  else process.env.COLBENCH_ONNX_CACHE = saved;
  rmSync(scratch, { recursive: true, force: true });
});

describe("CLIP on ONNX Runtime (the cpu device), tiny random CLIP", () => {
  it("equals transformers and the TypeScript reference within 1e-5, alone and in a batch", async () => {
    const built: string[] = [];
    const ort = await OnnxClipEmbedder.load(TINY, { onBuild: (f) => built.push(f) });
    const reference = ClipEmbedder.load(TINY);
    try {
      expect(built).toHaveLength(1);
      expect(ort.id).toBe(reference.id);
      const alone = await ort.embed(png(expected.embedding.input));
      expect(maxAbs(alone, expected.embedding.values)).toBeLessThan(1e-5);
      expect(maxAbs(alone, await reference.embed(png(expected.embedding.input)))).toBeLessThan(1e-5);

      // Eight different images in one batch: each as the reference computes it alone.
      const model = loadClipVision(TINY);
      const shot = clipPreprocess(decodePng(png("screenshot.png")), 96);
      const images = Array.from({ length: 8 }, (_, b) =>
        shot.map((v, i) => v * (1 - b / 16) + Math.sin(i * (b + 1) * 0.01) / 4),
      );
      const batch = await Promise.all(images.map((pixels) => ort.embedPixels(pixels)));
      for (const [b, pixels] of images.entries())
        expect(maxAbs(batch[b]!, embedImage(model, pixels)), `image ${b}`).toBeLessThan(1e-5);
    } finally {
      await ort.close();
    }
  });

  it("builds a checkpoint's graph once, keyed by its content, and again when the checkpoint changes", async () => {
    const built: string[] = [];
    const original = await OnnxClipEmbedder.load(TINY, { onBuild: (f) => built.push(f) });
    // A copy elsewhere is the same checkpoint: its graph is the one already built.
    const folder = path.join(scratch, "tiny-copy");
    cpSync(TINY, folder, { recursive: true });
    const copy = await OnnxClipEmbedder.load(folder, { onBuild: (f) => built.push(f) });
    expect(copy.graphFile).toBe(original.graphFile);
    expect(built).toEqual([]);
    const config = JSON.parse(readFileSync(path.join(folder, "config.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(path.join(folder, "config.json"), JSON.stringify({ ...config, layer_norm_eps: 1e-6 }));
    const changed = await OnnxClipEmbedder.load(folder, { onBuild: (f) => built.push(f) });
    expect(changed.graphFile).not.toBe(original.graphFile);
    expect(built).toEqual([changed.graphFile]);
    await Promise.all([original.close(), copy.close(), changed.close()]);
  });

  it("runs a graph exported by torch.onnx.export instead, to the same embeddings", async () => {
    const exported = await OnnxClipEmbedder.load(TINY, { onnxFile: path.join(FIXTURES, "tiny-clip-exported.onnx") });
    try {
      const embeddings = await Promise.all(["screenshot.png", "small.png"].map((f) => exported.embed(png(f))));
      expect(maxAbs(embeddings[0]!, expected.embedding.values)).toBeLessThan(1e-5);
      const reference = ClipEmbedder.load(TINY);
      expect(maxAbs(embeddings[1]!, await reference.embed(png("small.png")))).toBeLessThan(1e-5);
    } finally {
      await exported.close();
    }
  });

  it("is what createEmbedder gives by default, with reference as the other device and the same id", async () => {
    const cpu = await createEmbedder("clip-vit-b32", { clipPath: TINY });
    const reference = await createEmbedder("clip-vit-b32", { clipPath: TINY, device: "reference" });
    expect(cpu).toBeInstanceOf(OnnxClipEmbedder);
    expect(reference).toBeInstanceOf(ClipEmbedder);
    expect(cpu.id).toBe(reference.id);
    await cpu.close?.();
    await expect(createEmbedder("clip-vit-b32", { clipPath: TINY, device: "tpu" as never })).rejects.toThrow();
  });
});

const FULL = process.env.COLBENCH_CLIP_FULL;
const fullReason =
  "needs the full-size random ViT-B/32: python fixtures/make_clip_fixture.py --full DIR, then COLBENCH_CLIP_FULL=DIR";
describe.skipIf(!FULL || !existsSync(path.join(FULL, "expected.json")))(
  `CLIP on ONNX Runtime, full-size random ViT-B/32 (${FULL ? "from $COLBENCH_CLIP_FULL" : fullReason})`,
  () => {
    it("equals transformers and the TypeScript reference within 1e-5", { timeout: 300_000 }, async () => {
      const full = JSON.parse(readFileSync(path.join(FULL!, "expected.json"), "utf8")) as {
        embeddings: Record<string, number[]>;
      };
      const ort = await OnnxClipEmbedder.load(FULL!);
      const reference = ClipEmbedder.load(FULL!);
      try {
        expect(ort.id).toBe("clip-vit-b32");
        for (const [name, values] of Object.entries(full.embeddings)) {
          const a = await ort.embed(png(name));
          const r = await reference.embed(png(name));
          const errors = {
            ortVsTransformers: maxAbs(a, values),
            ortVsReference: maxAbs(a, r),
            referenceVsTransformers: maxAbs(r, values),
          };
          console.log(`full-size ${name}: max abs ${JSON.stringify(errors)}`);
          for (const [pair, error] of Object.entries(errors)) expect(error, pair).toBeLessThan(1e-5);
        }
      } finally {
        await ort.close();
      }
    });
  },
);
