import { f16ToF32, f32ToBf16, f32ToF16, bf16ToF32 } from "./half";
import type { Gpu } from "./gpu";
import packedReader from "./kernels/weights.wgsl";
import f16Reader from "./kernels/weights-f16.wgsl";

// Weights on the GPU stay in the checkpoint's own format (f32, f16 or bf16) in one u32 buffer; the
// kernels widen them as they read (kernels/weights.wgsl). Where the adapter has shader-f16, f16
// weights are read natively instead (kernels/weights-f16.wgsl): the same bytes, another reader.

export type WeightFormat = "f32" | "f16" | "bf16";
export const WEIGHT_CODES: Record<WeightFormat, number> = { f32: 0, f16: 1, bf16: 2 };
export const BYTES_PER_WEIGHT: Record<WeightFormat, number> = { f32: 4, f16: 2, bf16: 2 };

export interface GpuWeights {
  buffer: GPUBuffer;
  format: WeightFormat;
  /** Elements stored (matrix and, for linear layers, the bias after it). */
  elements: number;
}

/** A kernel's source behind the weight reader this adapter and format call for, with its constants. */
export function withWeights(gpu: Gpu, name: string, kernel: string, format: WeightFormat): { name: string; source: string; constants: Record<string, number> } {
  const native = format === "f16" && gpu.info.f16;
  return {
    name: `${name}:${native ? "f16-native" : format}`,
    source: `${native ? f16Reader : packedReader}\n${kernel}`,
    constants: { WEIGHTS: WEIGHT_CODES[format] },
  };
}

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

export function uploadWeights(gpu: Gpu, values: ArrayLike<number>, format: WeightFormat, label?: string): GpuWeights {
  return { buffer: gpu.upload(encodeWeights(values, format), label), format, elements: values.length };
}
