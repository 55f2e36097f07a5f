import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { seeded } from "../lib/gpu/testing/random";
import { encodeWeights } from "../lib/gpu/weight-format";

// The random ViT-B/32 image tower the CLIP benches share (bench/clip.ts, bench/gpu/clip-gpu.ts):
// the real shapes, so timings are B/32's, without a download.

/** A ViT-B/32-shaped CLIP vision checkpoint with seeded random F16 weights (LayerNorms at 1 and 0). */
export function writeRandomB32(dir: string): void {
  if (existsSync(path.join(dir, "model.safetensors"))) return;
  mkdirSync(dir, { recursive: true });
  const H = 768, I = 3072, P = 32, T = 50, E = 512;
  const shapes: Array<[string, number[], "random" | "ones" | "zeros"]> = [
    ["vision_model.embeddings.class_embedding", [H], "random"],
    ["vision_model.embeddings.patch_embedding.weight", [H, 3, P, P], "random"],
    ["vision_model.embeddings.position_embedding.weight", [T, H], "random"],
    ["vision_model.pre_layrnorm.weight", [H], "ones"],
    ["vision_model.pre_layrnorm.bias", [H], "zeros"],
  ];
  for (let l = 0; l < 12; l++) {
    const p = `vision_model.encoder.layers.${l}`;
    for (const n of ["layer_norm1", "layer_norm2"]) shapes.push([`${p}.${n}.weight`, [H], "ones"], [`${p}.${n}.bias`, [H], "zeros"]);
    for (const n of ["q_proj", "k_proj", "v_proj", "out_proj"]) shapes.push([`${p}.self_attn.${n}.weight`, [H, H], "random"], [`${p}.self_attn.${n}.bias`, [H], "random"]);
    shapes.push([`${p}.mlp.fc1.weight`, [I, H], "random"], [`${p}.mlp.fc1.bias`, [I], "random"], [`${p}.mlp.fc2.weight`, [H, I], "random"], [`${p}.mlp.fc2.bias`, [H], "random"]);
  }
  shapes.push(["vision_model.post_layernorm.weight", [H], "ones"], ["vision_model.post_layernorm.bias", [H], "zeros"], ["visual_projection.weight", [E, H], "random"]);
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
  writeFileSync(path.join(dir, "config.json"), JSON.stringify({ model_type: "clip_vision_model", hidden_act: "quick_gelu", hidden_size: H, intermediate_size: I, num_hidden_layers: 12, num_attention_heads: 12, image_size: 224, patch_size: P, projection_dim: E, layer_norm_eps: 1e-5 }));
  console.log(`wrote a random ViT-B/32 vision tower to ${dir}`);
}
