import { decodeWeights } from "../weight-format";
import type { TensorReader } from "../clip/model";

// A safetensors file already in memory (fetched by a browser): an 8-byte little-endian header
// length, the JSON header {name: {dtype, shape, data_offsets}}, then the tensors' bytes. The
// Node reader (safetensors.ts) reads only what it needs from disk; this one has the whole file.

const FORMATS = { F32: "f32", F16: "f16", BF16: "bf16" } as const;

export function safetensorsReader(buffer: ArrayBuffer): TensorReader {
  const view = new DataView(buffer);
  if (buffer.byteLength < 8) throw new Error("not a safetensors file (shorter than its header length)");
  const headerLength = Number(view.getBigUint64(0, true));
  if (8 + headerLength > buffer.byteLength) throw new Error("not a safetensors file (header runs past the end)");
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 8, headerLength))) as Record<
    string,
    { dtype: string; shape: number[]; data_offsets: [number, number] }
  >;
  const dataStart = 8 + headerLength;
  return (name, shape) => {
    const info = header[name];
    if (!info || name === "__metadata__") throw new Error(`no tensor ${name} in the checkpoint`);
    if (info.shape.length !== shape.length || info.shape.some((d, i) => d !== shape[i]))
      throw new Error(`${name}: shape [${info.shape.join(", ")}], expected [${shape.join(", ")}]`);
    const format = FORMATS[info.dtype as keyof typeof FORMATS];
    if (!format) throw new Error(`${name}: unsupported dtype ${info.dtype} (F32, F16 and BF16 are)`);
    const [begin, end] = info.data_offsets;
    return decodeWeights(new Uint8Array(buffer, dataStart + begin, end - begin), format);
  };
}

/** Skipping ahead costs a new request; below this many bytes reading through is cheaper. */
const SKIP_AT_LEAST = 1 << 20;

/**
 * The tensors `wanted` picks from a safetensors file read as a stream from its start, keeping only
 * their bytes: a full CLIP checkpoint holds the text tower too (about 40% of its 600 MB, stored
 * before the vision tower), which a browser embedding images has no use for. With `reopenAt` (the
 * file's bytes from an offset: a range request), the bytes before the first wanted tensor are not
 * read at all. `onProgress` hears the position reached in the file.
 */
export async function safetensorsFromStream(
  stream: ReadableStream<Uint8Array>,
  wanted: (name: string) => boolean,
  onProgress?: (read: number) => void,
  reopenAt?: (offset: number) => Promise<ReadableStream<Uint8Array>>,
): Promise<TensorReader> {
  let reader = stream.getReader();
  let pending = new Uint8Array(0);
  let read = 0;
  // Bytes until `n` are buffered (the header), from a stream of chunks.
  const fill = async (n: number) => {
    while (pending.byteLength < n) {
      const { value, done } = await reader.read();
      if (done) throw new Error("safetensors: the file ended early");
      read += value.byteLength;
      onProgress?.(read);
      const joined = new Uint8Array(pending.byteLength + value.byteLength);
      joined.set(pending);
      joined.set(value, pending.byteLength);
      pending = joined;
    }
  };
  await fill(8);
  const headerLength = Number(new DataView(pending.buffer, pending.byteOffset, 8).getBigUint64(0, true));
  await fill(8 + headerLength);
  const header = JSON.parse(new TextDecoder().decode(pending.subarray(8, 8 + headerLength))) as Record<
    string,
    { dtype: string; shape: number[]; data_offsets: [number, number] }
  >;
  const tensors = Object.entries(header)
    .filter(([name]) => name !== "__metadata__" && wanted(name))
    .map(([name, info]) => ({ name, info, bytes: new Uint8Array(info.data_offsets[1] - info.data_offsets[0]) }));
  // Copies the part of a chunk [from, from + chunk.length) of the data section each tensor covers.
  const place = (chunk: Uint8Array, from: number) => {
    for (const t of tensors) {
      const [begin, end] = t.info.data_offsets;
      const lo = Math.max(begin, from);
      const hi = Math.min(end, from + chunk.byteLength);
      if (lo < hi) t.bytes.set(chunk.subarray(lo - from, hi - from), lo - begin);
    }
  };
  const last = tensors.reduce((m, t) => Math.max(m, t.info.data_offsets[1]), 0);
  const first = tensors.reduce((m, t) => Math.min(m, t.info.data_offsets[0]), last);
  const rest = pending.subarray(8 + headerLength);
  let at: number;
  if (reopenAt && first - rest.byteLength >= SKIP_AT_LEAST) {
    await reader.cancel().catch(() => undefined);
    reader = (await reopenAt(8 + headerLength + first)).getReader();
    at = first;
    read = 8 + headerLength + first;
    onProgress?.(read);
  } else {
    place(rest, 0);
    at = rest.byteLength;
  }
  while (at < last) {
    const { value, done } = await reader.read();
    if (done) throw new Error("safetensors: the file ended before its last tensor");
    read += value.byteLength;
    onProgress?.(read);
    place(value, at);
    at += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  const byName = new Map(tensors.map((t) => [t.name, t]));
  return (name, shape) => {
    const t = byName.get(name);
    if (!t) throw new Error(`no tensor ${name} in the checkpoint`);
    if (t.info.shape.length !== shape.length || t.info.shape.some((d, i) => d !== shape[i]))
      throw new Error(`${name}: shape [${t.info.shape.join(", ")}], expected [${shape.join(", ")}]`);
    const format = FORMATS[t.info.dtype as keyof typeof FORMATS];
    if (!format) throw new Error(`${name}: unsupported dtype ${t.info.dtype} (F32, F16 and BF16 are)`);
    return decodeWeights(t.bytes, format);
  };
}
