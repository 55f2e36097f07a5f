import { bf16ToF32, f16ToF32, f32ToBf16, f32ToF16 } from "./half";

// The weight formats checkpoints store (f32, f16, bf16) and conversions between their bytes and f32,
// shared by the GPU loader, the CPU path and the tests.

export type WeightFormat = "f32" | "f16" | "bf16";
export const WEIGHT_CODES: Record<WeightFormat, number> = { f32: 0, f16: 1, bf16: 2 };
export const BYTES_PER_WEIGHT: Record<WeightFormat, number> = { f32: 4, f16: 2, bf16: 2 };

/** Values as a checkpoint of this format would hold them (tests and generated benches). */
export function encodeWeights(values: ArrayLike<number>, format: WeightFormat): Uint8Array {
  if (format === "f32") return new Uint8Array(Float32Array.from(values).buffer);
  const out = new Uint16Array(values.length);
  const encode = format === "f16" ? f32ToF16 : f32ToBf16;
  for (let i = 0; i < values.length; i++) out[i] = encode(values[i]!);
  return new Uint8Array(out.buffer);
}

/** Checkpoint bytes of this format as f32 (the CPU path). */
export function decodeWeights(bytes: Uint8Array, format: WeightFormat): Float32Array {
  if (format === "f32") {
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    return new Float32Array(copy.buffer);
  }
  const count = bytes.byteLength / 2;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(count);
  const decode = format === "f16" ? f16ToF32 : bf16ToF32;
  for (let i = 0; i < count; i++) out[i] = decode(view.getUint16(i * 2, true));
  return out;
}

/** Rounds f32 values to what the format keeps (a CPU reference reads the same numbers as the GPU). */
export function roundTo(values: Float32Array, format: WeightFormat): Float32Array {
  return format === "f32" ? values : decodeWeights(encodeWeights(values, format), format);
}
