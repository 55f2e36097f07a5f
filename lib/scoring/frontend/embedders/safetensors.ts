import { closeSync, openSync, readSync, fstatSync } from "node:fs";

// The safetensors format: an 8-byte little-endian header length, a JSON header
// {name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__"?: {...}}, then the raw
// little-endian tensor bytes, offsets counted from the end of the header. Tensors are read one
// at a time at their offsets, so a whole CLIP checkpoint (text tower included) never has to be
// in memory at once.

export type Dtype = "F32" | "F16" | "BF16";

export interface TensorInfo {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

export interface Tensor {
  shape: number[];
  data: Float32Array;
}

const BYTES: Record<Dtype, number> = { F32: 4, F16: 2, BF16: 2 };
const MAX_HEADER_BYTES = 100 * 1024 * 1024;

/** IEEE half precision to single. */
export function f16ToF32(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24; // subnormal
  if (exp === 0x1f) return frac ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** Converts raw little-endian bytes of one dtype to float32 values. */
export function decodeTensorBytes(bytes: Uint8Array, dtype: string): Float32Array {
  if (dtype !== "F32" && dtype !== "F16" && dtype !== "BF16")
    throw new Error(`unsupported tensor dtype ${dtype} (F32, F16 and BF16 are)`);
  const n = bytes.byteLength / BYTES[dtype];
  if (!Number.isInteger(n)) throw new Error(`${bytes.byteLength} bytes is not a whole number of ${dtype} values`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(n);
  if (dtype === "F32") for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true);
  else if (dtype === "F16") for (let i = 0; i < n; i++) out[i] = f16ToF32(view.getUint16(i * 2, true));
  else {
    // bfloat16 is the top half of a float32.
    const u32 = new Uint32Array(n);
    for (let i = 0; i < n; i++) u32[i] = view.getUint16(i * 2, true) << 16;
    out.set(new Float32Array(u32.buffer));
  }
  return out;
}

export class SafetensorsFile {
  readonly tensors: Map<string, TensorInfo>;
  readonly metadata: Record<string, string>;
  private readonly dataStart: number;
  private readonly fileSize: number;

  private constructor(
    readonly path: string,
    private readonly fd: number,
  ) {
    this.fileSize = fstatSync(fd).size;
    const lenBytes = this.readAt(0, 8);
    const headerLen = Number(new DataView(lenBytes.buffer, lenBytes.byteOffset, 8).getBigUint64(0, true));
    if (headerLen <= 0 || headerLen > MAX_HEADER_BYTES || 8 + headerLen > this.fileSize) {
      throw new Error(`${path}: not a safetensors file (header length ${headerLen})`);
    }
    const header = JSON.parse(Buffer.from(this.readAt(8, headerLen)).toString("utf8")) as Record<string, unknown>;
    this.dataStart = 8 + headerLen;
    this.metadata = (header.__metadata__ as Record<string, string> | undefined) ?? {};
    this.tensors = new Map();
    for (const [name, info] of Object.entries(header)) {
      if (name === "__metadata__") continue;
      const t = info as TensorInfo;
      const [begin, end] = t.data_offsets;
      if (!Array.isArray(t.shape) || !(begin >= 0 && end >= begin && this.dataStart + end <= this.fileSize)) {
        throw new Error(`${path}: tensor ${name} has a bad shape or offsets`);
      }
      this.tensors.set(name, t);
    }
  }

  static open(path: string): SafetensorsFile {
    const fd = openSync(path, "r");
    try {
      return new SafetensorsFile(path, fd);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  private readAt(position: number, length: number): Uint8Array {
    const buf = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const n = readSync(this.fd, buf, done, length - done, position + done);
      if (n === 0) throw new Error(`${this.path}: unexpected end of file`);
      done += n;
    }
    return buf;
  }

  has(name: string): boolean {
    return this.tensors.has(name);
  }

  /** One tensor as float32, checked against the expected shape when one is given. */
  read(name: string, expectedShape?: number[]): Tensor {
    const info = this.tensors.get(name);
    if (!info) throw new Error(`${this.path}: no tensor named ${name}`);
    if (
      expectedShape &&
      (expectedShape.length !== info.shape.length || expectedShape.some((d, i) => d !== info.shape[i]))
    ) {
      throw new Error(
        `${this.path}: ${name} has shape [${info.shape.join(",")}], expected [${expectedShape.join(",")}]`,
      );
    }
    const [begin, end] = info.data_offsets;
    const data = decodeTensorBytes(this.readAt(this.dataStart + begin, end - begin), info.dtype);
    const count = info.shape.reduce((a, b) => a * b, 1);
    if (data.length !== count)
      throw new Error(`${this.path}: ${name} holds ${data.length} values for shape [${info.shape.join(",")}]`);
    return { shape: info.shape, data };
  }

  close(): void {
    closeSync(this.fd);
  }
}
