import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { decodePng } from "../png";
import { ClipEmbedder } from "./clip";
import { clipNormalize, clipResizeCrop, shortestEdgeSize } from "./clip-preprocess";
import { embedImage, loadClipVision, parseClipConfig } from "./clip-vision";
import { SafetensorsFile } from "./safetensors";

// References made by transformers and Pillow themselves (fixtures/make_clip_fixture.py).

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

interface Expected {
  preprocess: Record<
    string,
    { input: string; size: number; cropped: string; samples: [number, number, number, number][] }
  >;
  embedding: { input: string; size: number; values: number[] };
  dtypes: Record<string, number[]>;
}

const expected = JSON.parse(readFileSync(path.join(FIXTURES, "expected.json"), "utf8")) as Expected;
const png = (name: string) => readFileSync(path.join(FIXTURES, name));

describe("CLIP preprocessing matches CLIPImageProcessor (Pillow backend)", () => {
  for (const [name, ref] of Object.entries(expected.preprocess)) {
    it(`resizes and crops ${ref.input} to ${ref.size} exactly as Pillow does (${name})`, () => {
      const ours = clipResizeCrop(decodePng(png(ref.input)), ref.size);
      const theirs = decodePng(png(ref.cropped));
      expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
      let differing = 0;
      for (let i = 0; i < ours.width * ours.height; i++) {
        for (let c = 0; c < 3; c++) if (ours.data[i * 3 + c] !== theirs.data[i * 4 + c]) differing++;
      }
      expect(differing).toBe(0);
    });

    it(`rescales and normalises like transformers (${name})`, () => {
      const pixels = clipNormalize(clipResizeCrop(decodePng(png(ref.input)), ref.size));
      for (const [c, y, x, value] of ref.samples) {
        expect(Math.abs(pixels[c * ref.size * ref.size + y * ref.size + x]! - value)).toBeLessThan(1e-6);
      }
    });
  }

  it("sizes the shortest side as transformers does (long side truncated)", () => {
    expect(shortestEdgeSize(1280, 800, 224)).toEqual([358, 224]);
    expect(shortestEdgeSize(1280, 3000, 224)).toEqual([224, 525]);
    expect(shortestEdgeSize(224, 300, 224)).toEqual([224, 300]);
  });
});

describe("safetensors reader", () => {
  it("reads F32, F16 and BF16 as torch does", () => {
    const file = SafetensorsFile.open(path.join(FIXTURES, "dtypes.safetensors"));
    try {
      for (const [name, values] of Object.entries(expected.dtypes)) {
        expect(Array.from(file.read(name, [values.length]).data)).toEqual(values.map((v) => Math.fround(v)));
      }
      expect(() => file.read("f32", [2, 4])).toThrow(/shape/);
      expect(() => file.read("nope")).toThrow(/no tensor/);
    } finally {
      file.close();
    }
  });
});

describe("CLIP vision tower matches CLIPVisionModelWithProjection", () => {
  const model = loadClipVision(path.join(FIXTURES, "tiny-clip"));

  it("reads the vision config (vision-only and CLIPModel layouts)", () => {
    expect(model.config).toMatchObject({
      hiddenSize: 64,
      numLayers: 2,
      numHeads: 4,
      imageSize: 96,
      patchSize: 32,
      projectionDim: 32,
    });
    const full = parseClipConfig({ projection_dim: 512, vision_config: { hidden_size: 768, patch_size: 32 } });
    expect(full).toMatchObject({ hiddenSize: 768, numLayers: 12, imageSize: 224, projectionDim: 512 });
    expect(() => parseClipConfig({ hidden_act: "gelu" })).toThrow(/quick_gelu/);
  });

  it("embeds the reference's own preprocessed pixels within 1e-4", () => {
    const ref = expected.embedding;
    // The reference crop, as transformers normalised it.
    const cropped = decodePng(png(`pil-screenshot-${ref.size}.png`));
    const rgb = new Uint8Array(cropped.width * cropped.height * 3);
    for (let i = 0; i < cropped.width * cropped.height; i++) rgb.set(cropped.data.subarray(i * 4, i * 4 + 3), i * 3);
    const embedding = embedImage(model, clipNormalize({ width: cropped.width, height: cropped.height, data: rgb }));
    const maxErr = Math.max(...ref.values.map((v, i) => Math.abs(v - embedding[i]!)));
    expect(embedding.length).toBe(ref.values.length);
    expect(maxErr).toBeLessThan(1e-4);
  });

  it("embeds a PNG end to end (decode, preprocess, forward) within 1e-4", async () => {
    const embedder = ClipEmbedder.load(path.join(FIXTURES, "tiny-clip"));
    expect(embedder.id).toBe("clip-vision-h64-l2-p32-i96-e32");
    const embedding = await embedder.embed(png(expected.embedding.input));
    const maxErr = Math.max(...expected.embedding.values.map((v, i) => Math.abs(v - embedding[i]!)));
    expect(maxErr).toBeLessThan(1e-4);
    let norm = 0;
    for (const v of embedding) norm += v * v;
    expect(Math.sqrt(norm)).toBeCloseTo(1, 6);
  });
});
