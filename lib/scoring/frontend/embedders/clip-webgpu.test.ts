import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gpu } from "../../../gpu/gpu";
import { GpuClipVision } from "../../../gpu/clip/vision";
import { openNodeGpu } from "../../../gpu/node/open";
import { decodePng } from "../png";
import { clipPreprocess } from "./clip-preprocess";
import { embedImage, loadClipVision } from "./clip-vision";
import { WebGpuClipEmbedder } from "./clip-webgpu";
import { createEmbedder } from "./index";
import { TINY_CLIP as TINY, expectedEmbedding, fixturePng as png, maxAbs } from "../../testing/clip-fixtures";

// The webgpu device (lib/gpu's kernels on Dawn: a GPU where there is one, else Mesa's software
// OpenGL ES, which is what CI has) against transformers itself (fixtures/expected.json, written by
// make_clip_fixture.py) and the TypeScript reference, on the committed tiny random CLIP.

const expected = { embedding: expectedEmbedding };

let gpu: Gpu;
beforeAll(async () => {
  gpu = await openNodeGpu();
  console.log(
    `adapter: ${gpu.info.graphicsApi} ${gpu.info.description}${gpu.info.software ? " (software)" : ""}, shader-f16: ${gpu.info.f16}`,
  );
});
afterAll(() => gpu?.destroy());

describe("CLIP on WebGPU (the webgpu device), tiny random CLIP", () => {
  const model = loadClipVision(TINY);

  it("equals transformers within 1e-4 in f32, through createEmbedder's decode and preprocessing", async () => {
    const embedder = await createEmbedder("clip-vit-b32", {
      clipPath: TINY,
      device: "webgpu",
      webgpu: { format: "f32" },
    });
    try {
      expect(embedder.id).toBe("clip-vision-h64-l2-p32-i96-e32");
      const embedding = await embedder.embed(png(expected.embedding.input));
      const error = maxAbs(embedding, expected.embedding.values);
      console.log(`webgpu f32 vs transformers: max abs error ${error.toExponential(2)}`);
      expect(error).toBeLessThan(1e-4);
    } finally {
      await (embedder as WebGpuClipEmbedder).close();
    }
  });

  // f16 storage is what an adapter with shader-f16 gets by default; without it (llvmpipe, SwiftShader)
  // the same f16 bytes are widened as read. The fixture's weights are f16 already, so storing them
  // in f16 loses nothing: this checks the f16 readers, not f16 rounding.
  it("equals transformers within 2e-3 with f16 weights (read natively where the adapter has shader-f16, else packed)", async () => {
    const embedder = WebGpuClipEmbedder.fromModel(gpu, model, { format: "f16" });
    try {
      const error = maxAbs(await embedder.embed(png(expected.embedding.input)), expected.embedding.values);
      console.log(
        `webgpu f16 weights (shader-f16: ${gpu.info.f16}) vs transformers: max abs error ${error.toExponential(2)}`,
      );
      expect(error).toBeLessThan(2e-3);
    } finally {
      await embedder.close();
    }
  });

  it("embeds a batch of different images as the reference embeds each alone, in batches the size it was given", async () => {
    const embedder = WebGpuClipEmbedder.fromModel(gpu, model, { format: "f32", maxBatch: 3 });
    try {
      expect(embedder.vision.maxBatch).toBe(3);
      const shot = clipPreprocess(decodePng(png("screenshot.png")), 96);
      const images = Array.from({ length: 8 }, (_, b) =>
        shot.map((v, i) => v * (1 - b / 16) + Math.sin(i * (b + 1) * 0.01) / 4),
      );
      const batch = await Promise.all(images.map((pixels) => embedder.embedPixels(pixels)));
      for (const [b, pixels] of images.entries())
        expect(maxAbs(batch[b]!, embedImage(model, pixels)), `image ${b}`).toBeLessThan(1e-5);
      // The images differ, so their embeddings do (a batch mixing rows up would show here).
      expect(maxAbs(batch[0]!, batch[7]!)).toBeGreaterThan(1e-3);
    } finally {
      await embedder.close();
    }
  });

  it("takes images that arrive while a batch is on the GPU into the next batch (renders overlap embedding)", async () => {
    const embedder = WebGpuClipEmbedder.fromModel(gpu, model, { format: "f32", maxBatch: 4 });
    const sizes: number[] = [];
    const embed = embedder.vision.embed.bind(embedder.vision);
    embedder.vision.embed = async (images) => {
      sizes.push(images.length);
      return embed(images);
    };
    try {
      const shot = clipPreprocess(decodePng(png("screenshot.png")), 96);
      const first = [0, 1].map(() => embedder.embedPixels(shot));
      // The first batch starts on the next turn; these come while it is on the GPU, as renders finish.
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(sizes).toEqual([2]);
      const later = [0, 1, 2].map(() => embedder.embedPixels(shot));
      await Promise.all([...first, ...later]);
      expect(sizes).toEqual([2, 3]);
    } finally {
      await embedder.close();
    }
  });

  it("lowers the batch to what one binding of the adapter holds", () => {
    const big = { ...model.config, imageSize: 224, patchSize: 32, intermediateSize: 3072, hiddenSize: 768 };
    const fake = {
      limits: { maxStorageBufferBindingSize: 50 * 3072 * 4 * 5 + 1, maxBufferSize: 1 << 30 },
    } as unknown as Gpu;
    expect(GpuClipVision.batchLimit(fake, big, 16)).toBe(5);
    expect(GpuClipVision.batchLimit(fake, big, 2)).toBe(2);
  });
});

describe("the browser's checkpoint reader (safetensors bytes in memory)", () => {
  it("assembles the same model as the Node file reader, and names a missing tensor", async () => {
    const { assembleClipVision } = await import("../../../gpu/clip/model");
    const { safetensorsReader } = await import("../../../gpu/model/safetensors-bytes");
    const bytes = readFileSync(path.join(TINY, "model.safetensors"));
    const read = safetensorsReader(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    const fromBytes = assembleClipVision(
      JSON.parse(readFileSync(path.join(TINY, "config.json"), "utf8")) as Record<string, unknown>,
      read,
    );
    const fromFile = loadClipVision(TINY);
    expect(fromBytes.config).toEqual(fromFile.config);
    expect(Array.from(fromBytes.layers[1]!.fc2.weight)).toEqual(Array.from(fromFile.layers[1]!.fc2.weight));
    expect(Array.from(fromBytes.projection)).toEqual(Array.from(fromFile.projection));
    expect(() => read("vision_model.nope", [1])).toThrow(/no tensor vision_model.nope/);
    expect(() => read("visual_projection.weight", [1, 2])).toThrow(/shape/);
  });
});

describe("CLIP's vision tower streamed from a served folder (the browser's loader)", () => {
  it("keeps only the vision tensors, in chunks of any size, and equals the file reader", async () => {
    const { loadClipVisionFrom } = await import("../../../gpu/clip/source");
    const bytes = new Uint8Array(readFileSync(path.join(TINY, "model.safetensors")));
    const config = readFileSync(path.join(TINY, "config.json"), "utf8");
    // Odd-sized chunks, so tensors and the header straddle them.
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.byteLength; at += 777) controller.enqueue(bytes.slice(at, at + 777));
          controller.close();
        },
      });
    const progress: number[] = [];
    const model = await loadClipVisionFrom(
      {
        where: "test",
        text: async (name) => (name === "config.json" ? config : null),
        size: async () => bytes.byteLength,
        stream: async () => stream(),
      },
      (p) => progress.push(p.loaded / p.total),
    );
    const fromFile = loadClipVision(TINY);
    expect(Array.from(model.patchEmbedding)).toEqual(Array.from(fromFile.patchEmbedding));
    expect(Array.from(model.layers[0]!.q.bias)).toEqual(Array.from(fromFile.layers[0]!.q.bias));
    expect(Array.from(model.postLayerNorm.weight)).toEqual(Array.from(fromFile.postLayerNorm.weight));
    expect(progress.at(-1)).toBeLessThanOrEqual(1);
    expect(progress.length).toBeGreaterThan(1);
  });
});

describe("choosing the device", () => {
  it("takes webgpu from $COLBENCH_CLIP_DEVICE (what runs read) and says so on the embedder; names a device it does not know", async () => {
    const { parseDevice } = await import("./index");
    const saved = process.env.COLBENCH_CLIP_DEVICE;
    process.env.COLBENCH_CLIP_DEVICE = "webgpu";
    try {
      const embedder = await createEmbedder("clip-vit-b32", { clipPath: TINY });
      expect(embedder.device).toBe("webgpu");
      await embedder.close?.();
    } finally {
      if (saved === undefined) delete process.env.COLBENCH_CLIP_DEVICE;
      else process.env.COLBENCH_CLIP_DEVICE = saved;
    }
    expect(() => parseDevice("cuda")).toThrow(/cpu, webgpu, reference/);
  });
});
