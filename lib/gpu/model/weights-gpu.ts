import type { Gpu } from "../gpu";
import type { VocabPart } from "../kernels/embed";
import type { Linear } from "../kernels/matmul";
import { VOCAB_CHUNK } from "../kernels/logprobs";
import { BYTES_PER_WEIGHT, type WeightFormat } from "../weight-format";
import type { GpuWeights } from "../weights";
import type { ModelConfig } from "./config";
import type { Layout, Placement } from "./layout";
import type { TensorEntry, TensorWriter } from "./safetensors";
import { ElementChunks, FORMAT_OF } from "./tensor-bytes";

// Checkpoint tensors written straight into GPU buffers, one buffer per layout group (the vocabulary
// tables split over several where one buffer binding cannot hold them), in the checkpoint's own
// format. Bytes pass through a small staging array; the queue is drained every 64 MiB so the driver
// does not pile up its own copy of the whole model while it loads.

const STAGING = 1 << 20;
const DRAIN_EVERY = 64 << 20;

interface Group {
  format: WeightFormat;
  parts: Array<{ buffer: GPUBuffer; first: number; elements: number }>;
}

export class GpuWeightStore {
  private readonly groups = new Map<string, Group>();
  private sinceDrain = 0;

  constructor(
    private readonly gpu: Gpu,
    private readonly layout: Layout,
    private readonly config: ModelConfig,
  ) {}

  private group(name: string, format: WeightFormat): Group {
    let group = this.groups.get(name);
    if (group) return group;
    const elements = this.layout.groups.get(name)!;
    const bytes = BYTES_PER_WEIGHT[format];
    const limit = this.gpu.limits.maxStorageBufferBindingSize;
    const vocabulary = name === "embed" || name === "lmHead";
    let perPart = elements;
    if (elements * bytes > limit) {
      if (!vocabulary)
        throw new Error(
          `${name}: ${elements * bytes} bytes of weights are more than this adapter binds at once (${limit})`,
        );
      const rows = Math.floor(limit / (this.config.hidden * bytes) / VOCAB_CHUNK) * VOCAB_CHUNK;
      if (rows < VOCAB_CHUNK)
        throw new Error(
          `${name}: this adapter binds at most ${limit} bytes, less than ${VOCAB_CHUNK} rows of the vocabulary table`,
        );
      perPart = rows * this.config.hidden;
    }
    const parts: Group["parts"] = [];
    for (let first = 0; first < elements; first += perPart) {
      const count = Math.min(perPart, elements - first);
      parts.push({ buffer: this.gpu.storage(count * bytes, `${name}[${parts.length}]`), first, elements: count });
    }
    group = { format, parts };
    this.groups.set(name, group);
    return group;
  }

  writerFor(entry: TensorEntry, placement: Placement): TensorWriter {
    const source = FORMAT_OF[entry.dtype];
    const group = this.group(placement.group, source);
    const chunks = new ElementChunks(source, group.format);
    const bytes = BYTES_PER_WEIGHT[group.format];
    const staging = new Uint8Array(STAGING);
    let filled = 0;
    let element = placement.at;
    const flush = async () => {
      let offset = 0;
      while (offset < filled) {
        const at = element + offset / bytes;
        const part = group.parts.find((p) => at >= p.first && at < p.first + p.elements)!;
        const take = Math.min(filled - offset, (part.first + part.elements - at) * bytes);
        this.gpu.write(part.buffer, (at - part.first) * bytes, staging.subarray(offset, offset + take));
        offset += take;
      }
      element += filled / bytes;
      this.sinceDrain += filled;
      filled = 0;
      if (this.sinceDrain >= DRAIN_EVERY) {
        this.sinceDrain = 0;
        this.gpu.device.queue.submit([]);
        await this.gpu.device.queue.onSubmittedWorkDone();
      }
    };
    return {
      write: async (raw) => {
        let data = chunks.push(raw);
        while (data.length) {
          const take = Math.min(data.length, STAGING - filled);
          staging.set(data.subarray(0, take), filled);
          filled += take;
          data = data.subarray(take);
          if (filled === STAGING) await flush();
        }
      },
      end: async () => {
        chunks.finish(entry.name);
        await flush();
      },
    };
  }

  weights(name: string): GpuWeights {
    const group = this.groups.get(name);
    if (!group) throw new Error(`weights ${name} were not loaded`);
    if (group.parts.length !== 1) throw new Error(`weights ${name} are split`);
    return { buffer: group.parts[0]!.buffer, format: group.format, elements: group.parts[0]!.elements };
  }

  linear(name: string, n: number, k: number, biasAt: number | null = null): Linear {
    return { weights: this.weights(name), n, k, at: 0, biasAt };
  }

  /** A vocabulary table as the embedding and log-prob kernels take it. */
  vocabulary(name: string): VocabPart[] {
    const group = this.groups.get(name);
    if (!group) throw new Error(`weights ${name} were not loaded`);
    const d = this.config.hidden;
    return group.parts.map((p) => ({
      weights: { buffer: p.buffer, format: group.format, elements: p.elements },
      begin: p.first / d,
      end: (p.first + p.elements) / d,
    }));
  }

  /** Bytes held on the GPU. */
  get bytes(): number {
    let total = 0;
    for (const g of this.groups.values()) for (const p of g.parts) total += p.buffer.size;
    return total;
  }

  destroy(): void {
    for (const g of this.groups.values()) for (const p of g.parts) p.buffer.destroy();
    this.groups.clear();
  }
}
