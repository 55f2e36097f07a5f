import type { Batch, Gpu } from "../gpu";
import { attention, type KvCache } from "../kernels/attention";
import { embed, type VocabPart } from "../kernels/embed";
import { logprobs, VOCAB_CHUNK } from "../kernels/logprobs";
import { matmul, type Linear } from "../kernels/matmul";
import { mlp } from "../kernels/mlp";
import { rmsnorm } from "../kernels/rmsnorm";
import { rope } from "../kernels/rope";
import { segmentTotals } from "../kernels/segments";
import { inverseFrequencies, ropeTable } from "../rope-table";
import type { GpuWeights } from "../weights";
import { parseConfig, type ModelConfig } from "./config";
import type { DecodeEngine, DecodeSession } from "./decode";
import { checkRequest, scoredSpan, type LogprobEngine, type ScoreRequest, type ScoreResult } from "./engine";
import { planLayout, streamCheckpoint, type LoadProgress } from "./layout";
import { jsonFile, type WeightSource } from "./source";
import { GpuDecodeSession } from "./gpu-decode";
import { GpuWeightStore } from "./weights-gpu";

// A Llama-family causal LM on WebGPU, for scoring: the shared prefix goes through the layers once
// (in passes of at most `maxRows` rows, each attending to the keys and values of those before),
// leaving every layer's keys and values in a cache; then the candidates, packed one after another,
// go through in passes that attend to that cache and to their own earlier tokens. Only rows whose
// next token is scored meet the vocabulary, through the fused log-softmax + gather.

interface Layer {
  norms: GpuWeights;
  qkv: Linear;
  o: Linear;
  gateUp: Linear;
  down: Linear;
}

/** Activations for passes of up to `rows` rows. */
export class Scratch {
  readonly buffers: Record<"h0" | "h1" | "x" | "qkv" | "k" | "v" | "attn" | "gateUp" | "inner" | "lmIn", GPUBuffer>;

  constructor(
    gpu: Gpu,
    c: ModelConfig,
    readonly rows: number,
  ) {
    const f = (n: number, label: string) => gpu.storage(n * 4, label);
    const q = c.heads * c.headDim;
    const kv = c.kvHeads * c.headDim;
    this.buffers = {
      h0: f(rows * c.hidden, "h0"),
      h1: f(rows * c.hidden, "h1"),
      x: f(rows * c.hidden, "x"),
      qkv: f(rows * (q + 2 * kv), "qkv"),
      k: f(rows * kv, "k"),
      v: f(rows * kv, "v"),
      attn: f(rows * q, "attn"),
      gateUp: f(rows * 2 * c.inner, "gateUp"),
      inner: f(rows * c.inner, "inner"),
      lmIn: f((rows + 1) * c.hidden, "lmIn"),
    };
  }

  destroy(): void {
    for (const b of Object.values(this.buffers)) b.destroy();
  }
}

export class GpuModel implements LogprobEngine, DecodeEngine {
  readonly device: string;
  /** Rows per pass: bounded by the largest activation buffer the adapter binds. */
  readonly maxRows: number;
  private readonly layers: Layer[];
  private readonly finalNorm: GpuWeights;
  private readonly embedding: VocabPart[];
  /** The LM head's table (the embedding's when tied); read by gpu-decode.ts. */
  readonly head: VocabPart[];
  private scratch: Scratch | null = null;
  private table: { buffer: GPUBuffer; positions: number } | null = null;

  static async load(
    gpu: Gpu,
    source: WeightSource,
    options: { onProgress?: (p: LoadProgress) => void; maxRows?: number } = {},
  ): Promise<GpuModel> {
    const config = parseConfig(await jsonFile(source, "config.json"), `${source.where}/config.json`);
    const layout = planLayout(config);
    const store = new GpuWeightStore(gpu, layout, config);
    try {
      await streamCheckpoint(
        source,
        layout,
        (entry, placement) => store.writerFor(entry, placement),
        options.onProgress,
      );
      await gpu.idle();
    } catch (error) {
      store.destroy();
      throw error;
    }
    return new GpuModel(gpu, config, store, layout.offsets, options.maxRows);
  }

  private constructor(
    readonly gpu: Gpu,
    readonly config: ModelConfig,
    private readonly store: GpuWeightStore,
    offsets: ReturnType<typeof planLayout>["offsets"],
    maxRows = 2048,
  ) {
    const c = config;
    const q = c.heads * c.headDim;
    const qkvRows = q + 2 * c.kvHeads * c.headDim;
    this.layers = Array.from({ length: c.layers }, (_, i) => ({
      norms: store.weights(`layer.${i}.norms`),
      qkv: store.linear(`layer.${i}.qkv`, qkvRows, c.hidden, c.qkvBias ? offsets.qkvBias : null),
      o: store.linear(`layer.${i}.o`, c.hidden, q, c.oBias ? offsets.oBias : null),
      gateUp: store.linear(`layer.${i}.gateUp`, 2 * c.inner, c.hidden),
      down: store.linear(`layer.${i}.down`, c.hidden, c.inner),
    }));
    this.postNormAt = offsets.postNorm;
    this.finalNorm = store.weights("norm");
    this.embedding = store.vocabulary("embed");
    this.head = c.tied ? this.embedding : store.vocabulary("lmHead");
    const widest = Math.max(2 * c.inner, qkvRows, c.hidden) * 4;
    this.maxRows = Math.max(1, Math.min(maxRows, Math.floor(gpu.limits.maxStorageBufferBindingSize / widest) - 1));
    this.device = `webgpu: ${gpu.info.graphicsApi}, ${gpu.info.description || gpu.info.architecture || gpu.info.vendor}${gpu.info.software ? " (software)" : ""}`;
  }

  private readonly postNormAt: number;

  /** Bytes of weights on the GPU. */
  get weightBytes(): number {
    return this.store.bytes;
  }

  /** @internal Activations for passes of `rows` rows (shared by every call: one at a time). */
  scratchFor(rows: number): Scratch {
    if (!this.scratch || this.scratch.rows < rows) {
      this.scratch?.destroy();
      this.scratch = new Scratch(this.gpu, this.config, rows);
    }
    return this.scratch;
  }

  /** @internal */
  ropeTable(positions: number): GPUBuffer {
    if (!this.table || this.table.positions < positions) {
      this.table?.buffer.destroy();
      const count = Math.max(positions, 256);
      this.table = {
        buffer: this.gpu.upload(ropeTable(inverseFrequencies(this.config.rope), count), "rope"),
        positions: count,
      };
    }
    return this.table.buffer;
  }

  /**
   * Records one pass of `rows` tokens through every layer; ends with the final-normed hidden states
   * in scratch.x. Attention sees `cache` (its first `cacheLength` rows) and the pass's own segments;
   * with `cacheAt`, the pass's keys and values are copied into the cache from that row.
   */
  /** @internal */
  pass(
    batch: Batch,
    s: Scratch,
    rows: number,
    ids: GPUBuffer,
    positions: GPUBuffer,
    segments: GPUBuffer,
    cache: KvCache[],
    cacheLength: number,
    cacheAt: number | null,
  ): void {
    const c = this.config;
    const b = s.buffers;
    const gpu = this.gpu;
    const heads = { heads: c.heads, kvHeads: c.kvHeads, headDim: c.headDim };
    const kvRowBytes = c.kvHeads * c.headDim * 4;
    const table = this.ropeTable(1);
    embed(gpu, batch, { ids, out: b.h0, rows, d: c.hidden, parts: this.embedding });
    this.layers.forEach((layer, l) => {
      rmsnorm(gpu, batch, { x: b.h0, y: b.x, rows, d: c.hidden, eps: c.eps, weights: layer.norms, at: 0 });
      matmul(gpu, batch, { x: b.x, y: b.qkv, m: rows, linear: layer.qkv });
      rope(gpu, batch, { qkv: b.qkv, k: b.k, v: b.v, table, positions, rows, ...heads });
      attention(gpu, batch, {
        q: b.qkv,
        qStride: (c.heads + 2 * c.kvHeads) * c.headDim,
        k: b.k,
        v: b.v,
        segments,
        out: b.attn,
        rows,
        prefix: { ...cache[l]!, length: cacheLength },
        ...heads,
      });
      if (cacheAt !== null) {
        batch.copy(b.k, 0, cache[l]!.k, cacheAt * kvRowBytes, rows * kvRowBytes);
        batch.copy(b.v, 0, cache[l]!.v, cacheAt * kvRowBytes, rows * kvRowBytes);
      }
      matmul(gpu, batch, { x: b.attn, y: b.h1, m: rows, linear: layer.o, residual: b.h0 });
      rmsnorm(gpu, batch, {
        x: b.h1,
        y: b.x,
        rows,
        d: c.hidden,
        eps: c.eps,
        weights: layer.norms,
        at: this.postNormAt,
      });
      mlp(gpu, batch, {
        x: b.x,
        y: b.h0,
        residual: b.h1,
        rows,
        gateUp: layer.gateUp,
        down: layer.down,
        gateUpOut: b.gateUp,
        hidden: b.inner,
      });
    });
    rmsnorm(gpu, batch, { x: b.h0, y: b.x, rows, d: c.hidden, eps: c.eps, weights: this.finalNorm });
  }

  /** log-probs of (row, token) pairs over `x`'s first `rows` rows, read back. */
  private async headLogprobs(
    batch: Batch,
    x: GPUBuffer,
    rows: number,
    pairs: number[],
    ranges?: number[],
  ): Promise<{ logprobs: Float32Array; totals: Float32Array | null }> {
    const count = pairs.length / 2;
    if (count === 0) {
      batch.submit();
      return { logprobs: new Float32Array(0), totals: ranges ? new Float32Array((ranges.length / 2) * 2) : null };
    }
    const gpu = this.gpu;
    const chunks = Math.ceil(this.config.vocab / VOCAB_CHUNK);
    const pairBuffer = gpu.upload(Uint32Array.from(pairs));
    const partials = gpu.storage(rows * chunks * 8, "partials");
    const out = gpu.storage(count * 4, "logprobs");
    logprobs(gpu, batch, { x, rows, d: this.config.hidden, parts: this.head, pairs: pairBuffer, count, partials, out });
    let totals: GPUBuffer | null = null;
    let rangeBuffer: GPUBuffer | null = null;
    if (ranges && ranges.length) {
      totals = gpu.storage(ranges.length * 4, "totals");
      rangeBuffer = gpu.upload(Uint32Array.from(ranges));
      segmentTotals(gpu, batch, { values: out, ranges: rangeBuffer, totals, count: ranges.length / 2 });
    }
    batch.submit();
    const result = {
      logprobs: await gpu.readF32(out, count),
      totals: totals ? await gpu.readF32(totals, ranges!.length) : null,
    };
    for (const buffer of [pairBuffer, partials, out, totals, rangeBuffer]) buffer?.destroy();
    return result;
  }

  async score(request: ScoreRequest): Promise<ScoreResult> {
    checkRequest(this.config, request);
    const c = this.config;
    const gpu = this.gpu;
    const { prefix, candidates } = request;
    const lp = prefix.length;
    const longest = Math.max(0, ...candidates.map((t) => t.length));
    if (longest > this.maxRows)
      throw new Error(
        `a candidate of ${longest} tokens is more than one pass of this model on this adapter holds (${this.maxRows})`,
      );
    this.ropeTable(lp + longest);
    const candidateRows = candidates.reduce((n, t) => n + t.length, 0);
    const s = this.scratchFor(Math.min(this.maxRows, Math.max(lp, candidateRows, 1)));
    const kvBytes = Math.max(4, lp * c.kvHeads * c.headDim * 4);
    const cache: KvCache[] = this.layers.map(() => ({
      k: gpu.storage(kvBytes, "cache k"),
      v: gpu.storage(kvBytes, "cache v"),
      length: lp,
    }));
    const temporary: GPUBuffer[] = cache.flatMap((k) => [k.k, k.v]);
    const upload = (data: Uint32Array) => {
      const buffer = gpu.upload(data);
      temporary.push(buffer);
      return buffer;
    };
    try {
      // The prefix, pass by pass; its last row's final hidden state is kept for the candidates' first tokens.
      const prefixLogprobs = new Float32Array(Math.max(0, lp - request.prefixFrom));
      const last = gpu.storage(c.hidden * 4, "last prefix row");
      temporary.push(last);
      for (let start = 0; start < lp; start += this.maxRows) {
        const rows = Math.min(this.maxRows, lp - start);
        const batch = gpu.batch();
        const segments = new Uint32Array(rows * 2);
        for (let i = 0; i < rows; i++) segments.set([0, rows], i * 2);
        this.pass(
          batch,
          s,
          rows,
          upload(Uint32Array.from(prefix.slice(start, start + rows))),
          upload(Uint32Array.from({ length: rows }, (_, i) => start + i)),
          upload(segments),
          cache,
          start,
          start,
        );
        if (start + rows === lp) batch.copy(s.buffers.x, (rows - 1) * c.hidden * 4, last, 0, c.hidden * 4);
        const pairs: number[] = [];
        for (let i = 0; i < rows; i++) {
          const next = start + i + 1;
          if (next >= request.prefixFrom && next < lp) pairs.push(i, prefix[next]!);
        }
        const { logprobs: got } = await this.headLogprobs(batch, s.buffers.x, rows, pairs);
        got.forEach(
          (value, j) => (prefixLogprobs[Math.max(start + 1, request.prefixFrom) - request.prefixFrom + j] = value),
        );
      }

      // The candidates, as many per pass as fit; each pass's LM input is the prefix's last row, then its rows.
      const out: Float32Array[] = candidates.map((t) => new Float32Array(t.length));
      const totals: Array<{ sum: number; mean: number }> = candidates.map(() => ({ sum: 0, mean: Number.NaN }));
      let next = 0;
      while (next < candidates.length) {
        const group: number[] = [];
        let rows = 0;
        while (next < candidates.length && rows + candidates[next]!.length <= this.maxRows) {
          rows += candidates[next]!.length;
          group.push(next++);
        }
        if (rows === 0) {
          // Empty candidates only: nothing to run.
          continue;
        }
        const { ids, positions, segments, pairs, ranges, firsts } = groupLayout(request, group, rows);
        const batch = gpu.batch();
        this.pass(batch, s, rows, upload(ids), upload(positions), upload(segments), cache, lp, null);
        batch.copy(last, 0, s.buffers.lmIn, 0, c.hidden * 4);
        batch.copy(s.buffers.x, 0, s.buffers.lmIn, c.hidden * 4, rows * c.hidden * 4);
        const result = await this.headLogprobs(batch, s.buffers.lmIn, rows + 1, pairs, ranges);
        const pairCount = pairs.length / 2;
        group.forEach((index, g) => {
          const tokens = candidates[index]!;
          const from = firsts[g]!;
          const to = g + 1 < group.length ? firsts[g + 1]! : pairCount;
          const values = out[index]!;
          // A first token with no prefix before it has no log-prob.
          const offset = tokens.length - (to - from);
          values.fill(Number.NaN, 0, offset);
          values.set(result.logprobs.subarray(from, to), offset);
          const counted = ranges[2 * g + 1]! - ranges[2 * g]!;
          totals[index] = { sum: result.totals![2 * g]!, mean: counted ? result.totals![2 * g + 1]! : Number.NaN };
        });
      }
      return { prefix: prefixLogprobs, candidates: out, totals };
    } finally {
      for (const buffer of temporary) buffer.destroy();
    }
  }

  /** Generation: a KV cache of `capacity` tokens for every layer, and passes that extend it (gpu-decode.ts). */
  startSession(capacity: number): DecodeSession {
    return new GpuDecodeSession(this, capacity);
  }

  dispose(): void {
    this.scratch?.destroy();
    this.table?.buffer.destroy();
    this.store.destroy();
  }
}

/**
 * How a group of candidates fills one pass after the prefix: each row's token, position and attention
 * segment (its own candidate), the (LM row, token) pairs to score, each candidate's scored span as a
 * range of pairs, and where each candidate's pairs start.
 */
function groupLayout(request: ScoreRequest, group: number[], rows: number) {
  const { candidates } = request;
  const lp = request.prefix.length;
  const ids = new Uint32Array(rows);
  const positions = new Uint32Array(rows);
  const segments = new Uint32Array(rows * 2);
  const pairs: number[] = [];
  const ranges: number[] = [];
  const firsts: number[] = [];
  let at = 0;
  for (const index of group) {
    const tokens = candidates[index]!;
    // Pair p scores own token j = p - first + skip (a first token with no prefix has no pair).
    const first = pairs.length / 2;
    const skip = lp > 0 ? 0 : 1;
    tokens.forEach((token, j) => {
      ids[at + j] = token;
      positions[at + j] = lp + j;
      segments.set([at, at + tokens.length], (at + j) * 2);
      // Row 0 of the LM input is the prefix's last row; the pass's rows follow from row 1.
      if (j === 0 && lp > 0) pairs.push(0, token);
      else if (j > 0) pairs.push(at + j, token);
    });
    firsts.push(first);
    const [from, to] = scoredSpan(request, index);
    ranges.push(first + from - skip, first + to - skip);
    at += tokens.length;
  }
  return { ids, positions, segments, pairs, ranges, firsts };
}
