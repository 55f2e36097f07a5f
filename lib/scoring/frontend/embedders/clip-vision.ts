import { readFileSync } from "node:fs";
import path from "node:path";
import * as cpu from "./clip-ops";
import { SafetensorsFile } from "./safetensors";

// CLIP's vision tower with its projection (transformers' CLIPVisionModelWithProjection):
// patch convolution (no bias) + class token + position embeddings, pre-LayerNorm, pre-norm
// transformer layers (LayerNorm → self-attention → residual, LayerNorm → fc1 → quick_gelu →
// fc2 → residual), post-LayerNorm of the class token, projection without bias, L2-normalised.

export interface ClipVisionConfig {
  hiddenSize: number;
  intermediateSize: number;
  numLayers: number;
  numHeads: number;
  imageSize: number;
  patchSize: number;
  projectionDim: number;
  layerNormEps: number;
}

/** CLIPVisionConfig's defaults, which are ViT-B/32's. */
const DEFAULTS: ClipVisionConfig = {
  hiddenSize: 768,
  intermediateSize: 3072,
  numLayers: 12,
  numHeads: 12,
  imageSize: 224,
  patchSize: 32,
  projectionDim: 512,
  layerNormEps: 1e-5,
};

/** Reads a CLIPModel config (vision part under vision_config) or a vision-only config. */
export function parseClipConfig(json: Record<string, unknown>): ClipVisionConfig {
  const vision = (json.vision_config ?? json.vision_config_dict ?? json) as Record<string, unknown>;
  const num = (v: unknown, fallback: number) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
  const act = vision.hidden_act ?? "quick_gelu";
  if (act !== "quick_gelu") throw new Error(`CLIP vision config uses hidden_act ${String(act)}; only quick_gelu is implemented`);
  return {
    hiddenSize: num(vision.hidden_size, DEFAULTS.hiddenSize),
    intermediateSize: num(vision.intermediate_size, DEFAULTS.intermediateSize),
    numLayers: num(vision.num_hidden_layers, DEFAULTS.numLayers),
    numHeads: num(vision.num_attention_heads, DEFAULTS.numHeads),
    imageSize: num(vision.image_size, DEFAULTS.imageSize),
    patchSize: num(vision.patch_size, DEFAULTS.patchSize),
    projectionDim: num(json.projection_dim ?? vision.projection_dim, DEFAULTS.projectionDim),
    layerNormEps: num(vision.layer_norm_eps, DEFAULTS.layerNormEps),
  };
}

interface Affine {
  weight: Float32Array;
  bias: Float32Array;
}

interface Layer {
  ln1: Affine;
  q: Affine;
  k: Affine;
  v: Affine;
  out: Affine;
  ln2: Affine;
  fc1: Affine;
  fc2: Affine;
}

export interface ClipVisionModel {
  config: ClipVisionConfig;
  /** [hidden, 3 * patch * patch]: the convolution's kernels, flattened channel-major. */
  patchEmbedding: Float32Array;
  classEmbedding: Float32Array;
  /** [tokens, hidden] with tokens = 1 + (imageSize / patchSize)². */
  positionEmbedding: Float32Array;
  preLayerNorm: Affine;
  layers: Layer[];
  postLayerNorm: Affine;
  /** [projectionDim, hidden] */
  projection: Float32Array;
}

/** Loads the vision tower from a Hugging Face CLIP checkpoint folder (model.safetensors + config.json). */
export function loadClipVision(folder: string): ClipVisionModel {
  const config = parseClipConfig(JSON.parse(readFileSync(path.join(folder, "config.json"), "utf8")) as Record<string, unknown>);
  const file = SafetensorsFile.open(path.join(folder, "model.safetensors"));
  try {
    const { hiddenSize: H, intermediateSize: I, patchSize: P, imageSize: S, projectionDim: E } = config;
    if (S % P !== 0) throw new Error(`image_size ${S} is not a multiple of patch_size ${P}`);
    if (H % config.numHeads !== 0) throw new Error(`hidden_size ${H} is not a multiple of num_attention_heads ${config.numHeads}`);
    const tokens = 1 + (S / P) ** 2;
    const t = (name: string, shape: number[]) => file.read(`vision_model.${name}`, shape).data;
    const affine = (name: string, out: number, inp?: number): Affine => ({
      weight: t(`${name}.weight`, inp === undefined ? [out] : [out, inp]),
      bias: t(`${name}.bias`, [out]),
    });
    const layers: Layer[] = [];
    for (let l = 0; l < config.numLayers; l++) {
      const p = `encoder.layers.${l}`;
      layers.push({
        ln1: affine(`${p}.layer_norm1`, H),
        q: affine(`${p}.self_attn.q_proj`, H, H),
        k: affine(`${p}.self_attn.k_proj`, H, H),
        v: affine(`${p}.self_attn.v_proj`, H, H),
        out: affine(`${p}.self_attn.out_proj`, H, H),
        ln2: affine(`${p}.layer_norm2`, H),
        fc1: affine(`${p}.mlp.fc1`, I, H),
        fc2: affine(`${p}.mlp.fc2`, H, I),
      });
    }
    return {
      config,
      patchEmbedding: t("embeddings.patch_embedding.weight", [H, 3, P, P]),
      classEmbedding: t("embeddings.class_embedding", [H]),
      positionEmbedding: t("embeddings.position_embedding.weight", [tokens, H]),
      // transformers spells it "pre_layrnorm".
      preLayerNorm: affine("pre_layrnorm", H),
      layers,
      postLayerNorm: affine("post_layernorm", H),
      projection: file.read("visual_projection.weight", [E, H]).data,
    };
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
