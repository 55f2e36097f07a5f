import { decodeWeights } from "../../../gpu/weight-format";
import type { TensorReader } from "./clip-model";

// A safetensors file already in memory (fetched by a browser): an 8-byte little-endian header
// length, the JSON header {name: {dtype, shape, data_offsets}}, then the tensors' bytes. The
// Node reader (safetensors.ts) reads only what it needs from disk; this one has the whole file.

const FORMATS = { F32: "f32", F16: "f16", BF16: "bf16" } as const;

export function safetensorsReader(buffer: ArrayBuffer): TensorReader {
  const view = new DataView(buffer);
  if (buffer.byteLength < 8) throw new Error("not a safetensors file (shorter than its header length)");
  const headerLength = Number(view.getBigUint64(0, true));
  if (8 + headerLength > buffer.byteLength) throw new Error("not a safetensors file (header runs past the end)");
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 8, headerLength))) as Record<string, { dtype: string; shape: number[]; data_offsets: [number, number] }>;
  const dataStart = 8 + headerLength;
  return (name, shape) => {
    const info = header[name];
    if (!info || name === "__metadata__") throw new Error(`no tensor ${name} in the checkpoint`);
    if (info.shape.length !== shape.length || info.shape.some((d, i) => d !== shape[i])) throw new Error(`${name}: shape [${info.shape.join(", ")}], expected [${shape.join(", ")}]`);
    const format = FORMATS[info.dtype as keyof typeof FORMATS];
    if (!format) throw new Error(`${name}: unsupported dtype ${info.dtype} (F32, F16 and BF16 are)`);
    const [begin, end] = info.data_offsets;
    return decodeWeights(new Uint8Array(buffer, dataStart + begin, end - begin), format);
  };
}
