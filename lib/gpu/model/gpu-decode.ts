import type { KvCache } from "../kernels/attention";
import { logits } from "../kernels/logits";
import { checkAppend, type DecodeSession } from "./decode";
import type { GpuModel } from "./gpu-model";

// Generation's passes on the GPU: the session owns a KV cache of `capacity` tokens per layer; each
// append runs its tokens (the prompt in passes of at most the model's maxRows, then one token per
// step) attending to the cache, writes their keys and values into it, and reads back the logits of
// its last row only (the LM head as a matmul, kernels/logits.ts).

export class GpuDecodeSession implements DecodeSession {
  length = 0;
  private readonly cache: KvCache[];
  private readonly last: GPUBuffer;
  private readonly out: GPUBuffer;
  private readonly partScratch: GPUBuffer | undefined;

  constructor(
    private readonly model: GpuModel,
    readonly capacity: number,
  ) {
    const c = model.config;
    const gpu = model.gpu;
    if (!(Number.isInteger(capacity) && capacity > 0))
      throw new Error(`a session's capacity must be a positive number of tokens (got ${capacity})`);
    const kvBytes = capacity * c.kvHeads * c.headDim * 4;
    if (kvBytes > gpu.limits.maxStorageBufferBindingSize) {
      throw new Error(
        `a KV cache of ${capacity} tokens takes ${kvBytes} bytes per layer, more than this adapter binds at once (${gpu.limits.maxStorageBufferBindingSize})`,
      );
    }
    this.cache = Array.from({ length: c.layers }, () => ({
      k: gpu.storage(kvBytes, "kv cache k"),
      v: gpu.storage(kvBytes, "kv cache v"),
      length: 0,
    }));
    this.last = gpu.storage(c.hidden * 4, "last row");
    this.out = gpu.storage(c.vocab * 4, "logits");
    const parts = model.head;
    this.partScratch =
      parts.length > 1 ? gpu.storage(Math.max(...parts.map((p) => p.end - p.begin)) * 4, "logits part") : undefined;
    model.ropeTable(capacity);
  }

  async append(ids: number[]): Promise<Float32Array> {
    const { config: c, gpu } = this.model;
    checkAppend(c, this, ids);
    const temporary: GPUBuffer[] = [];
    const upload = (data: Uint32Array) => {
      const buffer = gpu.upload(data);
      temporary.push(buffer);
      return buffer;
    };
    try {
      let result: Float32Array | null = null;
      for (let start = 0; start < ids.length; start += this.model.maxRows) {
        const rows = Math.min(this.model.maxRows, ids.length - start);
        const s = this.model.scratchFor(rows);
        const batch = gpu.batch();
        const segments = new Uint32Array(rows * 2);
        for (let i = 0; i < rows; i++) segments.set([0, rows], i * 2);
        const positions = Uint32Array.from({ length: rows }, (_, i) => this.length + i);
        this.model.pass(
          batch,
          s,
          rows,
          upload(Uint32Array.from(ids.slice(start, start + rows))),
          upload(positions),
          upload(segments),
          this.cache,
          this.length,
          this.length,
        );
        this.length += rows;
        const lastPass = start + rows === ids.length;
        if (lastPass) {
          batch.copy(s.buffers.x, (rows - 1) * c.hidden * 4, this.last, 0, c.hidden * 4);
          logits(gpu, batch, {
            x: this.last,
            rows: 1,
            d: c.hidden,
            parts: this.model.head,
            out: this.out,
            scratch: this.partScratch,
          });
        }
        batch.submit();
        if (lastPass) result = await gpu.readF32(this.out, c.vocab);
      }
      return result!;
    } finally {
      for (const buffer of temporary) buffer.destroy();
    }
  }

  dispose(): void {
    for (const k of this.cache) {
      k.k.destroy();
      k.v.destroy();
    }
    this.last.destroy();
    this.out.destroy();
    this.partScratch?.destroy();
  }
}
