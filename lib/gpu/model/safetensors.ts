// The safetensors format, read as a stream: 8 bytes (little-endian header length), a JSON header
// naming each tensor's dtype, shape and [begin, end) within the data that follows. Tensors are handed
// to their writers chunk by chunk as the bytes arrive, so a checkpoint is never held whole.

export type Dtype = "F32" | "F16" | "BF16";
const DTYPES = new Set(["F32", "F16", "BF16"]);

export interface TensorEntry {
  name: string;
  dtype: Dtype;
  shape: number[];
  begin: number;
  end: number;
}

export interface TensorWriter {
  write(bytes: Uint8Array): void | Promise<void>;
  end(): void | Promise<void>;
}

/** Pulls exact byte counts out of a stream's chunks. */
class ByteReader {
  private chunk: Uint8Array = new Uint8Array(0);
  private at = 0;
  /** Bytes consumed so far. */
  position = 0;

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly onBytes: (n: number) => void,
  ) {}

  /** Up to `max` bytes (at least one) as they sit in the current chunk; null at the end of the stream. */
  async next(max: number): Promise<Uint8Array | null> {
    while (this.at >= this.chunk.length) {
      const { done, value } = await this.reader.read();
      if (done) return null;
      this.chunk = value;
      this.at = 0;
      this.onBytes(value.byteLength);
    }
    const n = Math.min(max, this.chunk.length - this.at);
    const out = this.chunk.subarray(this.at, this.at + n);
    this.at += n;
    this.position += n;
    return out;
  }

  async exactly(n: number, what: string): Promise<Uint8Array> {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const part = await this.next(n - filled);
      if (!part) throw new Error(`${what}: the file ends after ${this.position} bytes`);
      out.set(part, filled);
      filled += part.length;
    }
    return out;
  }
}

export function parseHeader(file: string, json: string): TensorEntry[] {
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(json) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${file}: its header is not JSON (${(error as Error).message}): not a safetensors file?`);
  }
  const entries: TensorEntry[] = [];
  for (const [name, value] of Object.entries(header)) {
    if (name === "__metadata__") continue;
    const v = value as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    const offsets = v.data_offsets as number[] | undefined;
    if (!Array.isArray(offsets) || offsets.length !== 2 || !Array.isArray(v.shape))
      throw new Error(`${file}: tensor ${name}: malformed header entry`);
    entries.push({
      name,
      dtype: String(v.dtype) as Dtype,
      shape: v.shape as number[],
      begin: offsets[0]!,
      end: offsets[1]!,
    });
  }
  return entries.sort((a, b) => a.begin - b.begin);
}

/**
 * Reads one safetensors stream: `writerFor` is asked for each tensor in data order (null skips it),
 * and gets its bytes chunk by chunk. `onBytes` hears of every chunk read (progress).
 */
export async function readSafetensors(
  file: string,
  stream: ReadableStream<Uint8Array>,
  writerFor: (entry: TensorEntry) => TensorWriter | null | Promise<TensorWriter | null>,
  onBytes: (n: number) => void = () => {},
): Promise<TensorEntry[]> {
  const reader = stream.getReader();
  const bytes = new ByteReader(reader, onBytes);
  try {
    const length = new DataView((await bytes.exactly(8, file)).buffer).getBigUint64(0, true);
    if (length > 100_000_000n) throw new Error(`${file}: a header of ${length} bytes: not a safetensors file`);
    const entries = parseHeader(
      file,
      new TextDecoder().decode(await bytes.exactly(Number(length), `${file} (header)`)),
    );
    const dataStart = 8 + Number(length);
    for (const entry of entries) {
      const writer = await writerFor(entry);
      if (writer && !DTYPES.has(entry.dtype))
        throw new Error(`${file}: tensor ${entry.name} is ${entry.dtype}; the scorer reads F32, F16 and BF16`);
      // Skip to the tensor's start (gaps and unwanted tensors are read past, not stored).
      while (bytes.position < dataStart + entry.begin) {
        if (!(await bytes.next(dataStart + entry.begin - bytes.position)))
          throw new Error(`${file}: ends before tensor ${entry.name}`);
      }
      while (bytes.position < dataStart + entry.end) {
        const part = await bytes.next(dataStart + entry.end - bytes.position);
        if (!part)
          throw new Error(
            `${file}: ends inside tensor ${entry.name} (at byte ${bytes.position} of ${dataStart + entry.end})`,
          );
        if (writer) await writer.write(part);
      }
      if (writer) await writer.end();
    }
    return entries;
  } finally {
    await reader.cancel().catch(() => {});
  }
}
