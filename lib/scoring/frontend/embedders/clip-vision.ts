import { readFileSync } from "node:fs";
import path from "node:path";
import * as cpu from "./clip-ops";
import { assembleClipVision, type ClipVisionModel } from "../../../gpu/clip/model";
import { SafetensorsFile } from "./safetensors";

export {
  assembleClipVision,
  parseClipConfig,
  type ClipVisionConfig,
  type ClipVisionModel,
  type TensorReader,
} from "../../../gpu/clip/model";

// CLIP's vision tower with its projection (transformers' CLIPVisionModelWithProjection):
// patch convolution (no bias) + class token + position embeddings, pre-LayerNorm, pre-norm
// transformer layers (LayerNorm → self-attention → residual, LayerNorm → fc1 → quick_gelu →
// fc2 → residual), post-LayerNorm of the class token, projection without bias, L2-normalised.

/** Loads the vision tower from a Hugging Face CLIP checkpoint folder (model.safetensors + config.json). */
export function loadClipVision(folder: string): ClipVisionModel {
  const json = JSON.parse(readFileSync(path.join(folder, "config.json"), "utf8")) as Record<string, unknown>;
  const file = SafetensorsFile.open(path.join(folder, "model.safetensors"));
  try {
    return assembleClipVision(json, (name, shape) => file.read(name, shape).data);
  } finally {
    file.close();
  }
}

export type ClipOps = typeof cpu;

/** Flattens each patch of pixels [3, S, S] channel-major, as the convolution's kernels are. */
function patches(pixels: Float32Array, S: number, P: number): Float32Array {
  const g = S / P;
  const K = 3 * P * P;
  const out = new Float32Array(g * g * K);
  for (let gy = 0; gy < g; gy++) {
    for (let gx = 0; gx < g; gx++) {
      let o = (gy * g + gx) * K;
      for (let c = 0; c < 3; c++) {
        for (let py = 0; py < P; py++) {
          const row = c * S * S + (gy * P + py) * S + gx * P;
          out.set(pixels.subarray(row, row + P), o);
          o += P;
        }
      }
    }
  }
  return out;
}

/** The L2-normalised image embedding of preprocessed pixels [3, imageSize, imageSize]. */
export function embedImage(model: ClipVisionModel, pixels: Float32Array, ops: ClipOps = cpu): Float32Array {
  const { hiddenSize: H, intermediateSize: I, patchSize: P, imageSize: S, numHeads, layerNormEps: eps } = model.config;
  if (pixels.length !== 3 * S * S) throw new Error(`expected ${3 * S * S} pixel values, got ${pixels.length}`);
  const grid = (S / P) ** 2;
  const T = grid + 1;

  const patchEmbeds = ops.linear(patches(pixels, S, P), grid, 3 * P * P, model.patchEmbedding, H);
  let h: Float32Array = new Float32Array(T * H);
  h.set(model.classEmbedding, 0);
  h.set(patchEmbeds, H);
  ops.addInPlace(h, model.positionEmbedding);
  h = ops.layerNorm(h, T, H, model.preLayerNorm.weight, model.preLayerNorm.bias, eps);

  for (const layer of model.layers) {
    const x = ops.layerNorm(h, T, H, layer.ln1.weight, layer.ln1.bias, eps);
    const q = ops.linear(x, T, H, layer.q.weight, H, layer.q.bias);
    const k = ops.linear(x, T, H, layer.k.weight, H, layer.k.bias);
    const v = ops.linear(x, T, H, layer.v.weight, H, layer.v.bias);
    const attended = ops.attention(q, k, v, T, numHeads, H / numHeads);
    ops.addInPlace(h, ops.linear(attended, T, H, layer.out.weight, H, layer.out.bias));
    const y = ops.layerNorm(h, T, H, layer.ln2.weight, layer.ln2.bias, eps);
    const hidden = ops.linear(y, T, H, layer.fc1.weight, I, layer.fc1.bias);
    ops.quickGeluInPlace(hidden);
    ops.addInPlace(h, ops.linear(hidden, T, I, layer.fc2.weight, H, layer.fc2.bias));
  }

  const pooled = ops.layerNorm(h.subarray(0, H), 1, H, model.postLayerNorm.weight, model.postLayerNorm.bias, eps);
  const projected = ops.linear(pooled, 1, H, model.projection, model.config.projectionDim);
  return ops.l2Normalize(projected);
}
