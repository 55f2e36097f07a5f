import type { Gpu } from "./gpu";
import { encodeWeights, WEIGHT_CODES, type WeightFormat } from "./weight-format";
import packedReader from "./kernels/weights.wgsl";
import f16Reader from "./kernels/weights-f16.wgsl";

// Weights on the GPU stay in the checkpoint's own format (f32, f16 or bf16) in one u32 buffer; the
// kernels widen them as they read (kernels/weights.wgsl). Where the adapter has shader-f16, f16
// weights are read natively instead (kernels/weights-f16.wgsl): the same bytes, another reader.

export interface GpuWeights {
  buffer: GPUBuffer;
  format: WeightFormat;
  /** Elements stored (matrix and, for linear layers, the bias after it). */
  elements: number;
}

/** A kernel's source behind the weight reader this adapter and format call for, with its constants. */
export function withWeights(
  gpu: Gpu,
  name: string,
  kernel: string,
  format: WeightFormat,
): { name: string; source: string; constants: Record<string, number> } {
  const native = format === "f16" && gpu.info.f16;
  return {
    name: `${name}:${native ? "f16-native" : format}`,
    source: `${native ? f16Reader : packedReader}\n${kernel}`,
    constants: { WEIGHTS: WEIGHT_CODES[format] },
  };
}

export function uploadWeights(gpu: Gpu, values: ArrayLike<number>, format: WeightFormat, label?: string): GpuWeights {
  return { buffer: gpu.upload(encodeWeights(values, format), label), format, elements: values.length };
}
