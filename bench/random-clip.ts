import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { seeded } from "../lib/gpu/testing/random";
import { encodeWeights } from "../lib/gpu/weight-format";

// Random CLIP image towers the CLIP benches share (bench/clip.ts, bench/gpu/clip-gpu.ts): ViT-B/32's
// real shapes, so timings are B/32's, without a download; and a tiny tower on the same 224x224
// input with 32x32 patches (50 tokens) for smoke tests of the machinery, which on a software adapter
// would spend minutes per image on B/32.

export const CLIP_SHAPES = {
  b32: { hidden: 768, inner: 3072, layers: 12, heads: 12, projection: 512 },
  tiny: { hidden: 64, inner: 128, layers: 2, heads: 4, projection: 32 },
} as const;
export type ClipShape = keyof typeof CLIP_SHAPES;

/** A ViT-B/32-shaped CLIP vision checkpoint with seeded random F16 weights (LayerNorms at 1 and 0). */
export function writeRandomB32(dir: string): void {
  writeRandomClip(dir, "b32");
}

/** A CLIP vision checkpoint of `shape` (224x224 images, 32x32 patches) with seeded random F16 weights; kept if already written. */
export function writeRandomClip(dir: string, shape: ClipShape): void {
  if (existsSync(path.join(dir, "model.safetensors")) && existsSync(path.join(dir, "config.json"))) {
    const config = JSON.parse(readFileSync(path.join(dir, "config.json"), "utf8")) as {
      hidden_size?: number;
      num_hidden_layers?: number;
    };
    if (config.hidden_size === CLIP_SHAPES[shape].hidden && config.num_hidden_layers === CLIP_SHAPES[shape].layers)
      return;
  }
  mkdirSync(dir, { recursive: true });
  const { hidden: H, inner: I, layers: L, heads: NH, projection: E } = CLIP_SHAPES[shape];
  const P = 32,
    T = 50;
  const shapes: Array<[string, number[], "random" | "ones" | "zeros"]> = [
    ["vision_model.embeddings.class_embedding", [H], "random"],
    ["vision_model.embeddings.patch_embedding.weight", [H, 3, P, P], "random"],
    ["vision_model.embeddings.position_embedding.weight", [T, H], "random"],
    ["vision_model.pre_layrnorm.weight", [H], "ones"],
    ["vision_model.pre_layrnorm.bias", [H], "zeros"],
  ];
  for (let l = 0; l < L; l++) {
    const p = `vision_model.encoder.layers.${l}`;
    for (const n of ["layer_norm1", "layer_norm2"])
      shapes.push([`${p}.${n}.weight`, [H], "ones"], [`${p}.${n}.bias`, [H], "zeros"]);
    for (const n of ["q_proj", "k_proj", "v_proj", "out_proj"])
      shapes.push([`${p}.self_attn.${n}.weight`, [H, H], "random"], [`${p}.self_attn.${n}.bias`, [H], "random"]);
    shapes.push(
      [`${p}.mlp.fc1.weight`, [I, H], "random"],
      [`${p}.mlp.fc1.bias`, [I], "random"],
      [`${p}.mlp.fc2.weight`, [H, I], "random"],
      [`${p}.mlp.fc2.bias`, [H], "random"],
    );
  }
  shapes.push(
    ["vision_model.post_layernorm.weight", [H], "ones"],
    ["vision_model.post_layernorm.bias", [H], "zeros"],
    ["visual_projection.weight", [E, H], "random"],
  );
  const random = seeded(32);
  const header: Record<string, unknown> = {};
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const [name, shape, fill] of shapes) {
    const n = shape.reduce((a, b) => a * b, 1);
    const values = new Float32Array(n);
    for (let i = 0; i < n; i++) values[i] = fill === "ones" ? 1 : fill === "zeros" ? 0 : (random() * 2 - 1) * 0.04;
    const bytes = encodeWeights(values, "f16");
    header[name] = { dtype: "F16", shape, data_offsets: [at, at + bytes.byteLength] };
    parts.push(bytes);
    at += bytes.byteLength;
  }
  let json = JSON.stringify(header);
  json += " ".repeat((8 - (json.length % 8)) % 8);
  const length = new Uint8Array(8);
  new DataView(length.buffer).setBigUint64(0, BigInt(json.length), true);
  writeFileSync(path.join(dir, "model.safetensors"), Buffer.concat([length, new TextEncoder().encode(json), ...parts]));
  writeFileSync(
    path.join(dir, "config.json"),
    JSON.stringify({
      model_type: "clip_vision_model",
      hidden_act: "quick_gelu",
      hidden_size: H,
      intermediate_size: I,
      num_hidden_layers: L,
      num_attention_heads: NH,
      image_size: 224,
      patch_size: P,
      projection_dim: E,
      layer_norm_eps: 1e-5,
    }),
  );
  console.log(
    `wrote a random ${shape === "b32" ? "ViT-B/32" : "tiny (224x224, 32x32 patches)"} vision tower to ${dir}`,
  );
}
