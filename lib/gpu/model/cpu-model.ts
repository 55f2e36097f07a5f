import { attentionCpu } from "../kernels/attention.cpu";
import { embedCpu } from "../kernels/embed.cpu";
import { logprobsCpu } from "../kernels/logprobs.cpu";
import { matmulCpu } from "../kernels/matmul.cpu";
import { mlpCpu } from "../kernels/mlp.cpu";
import { rmsnormCpu } from "../kernels/rmsnorm.cpu";
import { ropeCpu } from "../kernels/rope.cpu";
import { inverseFrequencies, ropeTable } from "../rope-table";
import { parseConfig, type ModelConfig } from "./config";
import { checkAppend, type DecodeEngine, type DecodeSession } from "./decode";
import { checkRequest, scoredSpan, type LogprobEngine, type ScoreRequest, type ScoreResult } from "./engine";
import { planLayout, streamCheckpoint, type LoadProgress } from "./layout";
import { jsonFile, type WeightSource } from "./source";
import { CpuWeightStore } from "./weights-cpu";

// The same model on the CPU, built from the kernels' CPU references: each candidate is run whole
// (prefix and candidate, one causal sequence, no cache), so it also checks the GPU runner's prefix
// sharing. For tiny models (tests, the studio's e2e check) and as the bench's peer. Generation
// (startSession) keeps each layer's keys and values as it goes, as the GPU runner does.

/** Keys and values of the tokens a session has run, per layer ([capacity, kvHeads, headDim]). */
interface CpuKvCache {
  k: Float32Array[];
  v: Float32Array[];
  length: number;
  table: Float32Array;
}

export class CpuModel implements LogprobEngine, DecodeEngine {
  readonly device = "cpu";

  static async load(source: WeightSource, options: { onProgress?: (p: LoadProgress) => void } = {}): Promise<CpuModel> {
    const config = parseConfig(await jsonFile(source, "config.json"), `${source.where}/config.json`);
    const layout = planLayout(config);
    const store = new CpuWeightStore(layout);
    await streamCheckpoint(source, layout, (entry, placement) => store.writerFor(entry, placement), options.onProgress);
    return new CpuModel(config, store, layout.offsets);
  }

  constructor(
    readonly config: ModelConfig,
    private readonly store: CpuWeightStore,
    private readonly offsets: ReturnType<typeof planLayout>["offsets"],
  ) {}

  /**
   * Final-normed hidden states of one causal sequence; with `cache`, of tokens that follow the ones
   * it holds (attending to them), whose keys and values it then holds too.
   */
  hidden(ids: number[], cache?: CpuKvCache): Float32Array {
    const c = this.config;
    const n = ids.length;
    const q = c.heads * c.headDim;
    const kv = c.kvHeads * c.headDim;
    const qkvRows = q + 2 * kv;
    const start = cache?.length ?? 0;
    const table = cache?.table ?? ropeTable(inverseFrequencies(c.rope), Math.max(1, n));
    const positions = Array.from({ length: n }, (_, i) => start + i);
    const segments = Array.from({ length: 2 * n }, (_, i) => (i % 2 ? n : 0));
    let h = embedCpu(this.store.get("embed"), c.hidden, ids);
    for (let l = 0; l < c.layers; l++) {
      const norms = this.store.get(`layer.${l}.norms`);
      const qkvW = this.store.get(`layer.${l}.qkv`);
      const oW = this.store.get(`layer.${l}.o`);
      const gateUp = this.store.get(`layer.${l}.gateUp`);
      const down = this.store.get(`layer.${l}.down`);
      const x = rmsnormCpu(h, n, c.hidden, norms.subarray(0, c.hidden), c.eps);
      const qkv = matmulCpu(x, n, qkvW, qkvRows, c.hidden, c.qkvBias ? qkvW.subarray(this.offsets.qkvBias) : null);
      const r = ropeCpu(qkv, n, c.heads, c.kvHeads, c.headDim, table, positions);
      const attn = attentionCpu({
        q: r.qkv,
        qStride: qkvRows,
        rows: n,
        heads: c.heads,
        kvHeads: c.kvHeads,
        headDim: c.headDim,
        prefixK: cache ? cache.k[l]!.subarray(0, start * kv) : new Float32Array(0),
        prefixV: cache ? cache.v[l]!.subarray(0, start * kv) : new Float32Array(0),
        prefixLength: start,
        k: r.k,
        v: r.v,
        segments,
      });
      if (cache) {
        cache.k[l]!.set(r.k, start * kv);
        cache.v[l]!.set(r.v, start * kv);
      }
      const h1 = matmulCpu(attn, n, oW, c.hidden, q, c.oBias ? oW.subarray(this.offsets.oBias) : null, h);
      const x2 = rmsnormCpu(
        h1,
        n,
        c.hidden,
        norms.subarray(this.offsets.postNorm, this.offsets.postNorm + c.hidden),
        c.eps,
      );
      h = mlpCpu(x2, n, c.hidden, gateUp.subarray(0, 2 * c.inner * c.hidden), down, c.inner, h1);
    }
    if (cache) cache.length += n;
    return rmsnormCpu(h, n, c.hidden, this.store.get("norm"), c.eps);
  }

  /** The logits of one final-normed hidden row (the LM head in f64 sums, as matmul.wgsl's reference). */
  logits(row: Float32Array): Float32Array {
    const c = this.config;
    return matmulCpu(row, 1, this.store.get(c.tied ? "embed" : "lmHead"), c.vocab, c.hidden);
  }

  startSession(capacity: number): DecodeSession {
    const c = this.config;
    const kv = c.kvHeads * c.headDim;
    const cache: CpuKvCache = {
      k: Array.from({ length: c.layers }, () => new Float32Array(capacity * kv)),
      v: Array.from({ length: c.layers }, () => new Float32Array(capacity * kv)),
      length: 0,
      table: ropeTable(inverseFrequencies(c.rope), Math.max(1, capacity)),
    };
    const session: DecodeSession = {
      capacity,
      get length() {
        return cache.length;
      },
      append: async (ids) => {
        checkAppend(c, session, ids);
        const x = this.hidden(ids, cache);
        return this.logits(x.subarray((ids.length - 1) * c.hidden, ids.length * c.hidden));
      },
      dispose: () => {},
    };
    return session;
  }

  /** log p(ids[i] | ids[..i]) for i ≥ 1. */
  sequenceLogprobs(ids: number[]): Float32Array {
    if (ids.length < 2) return new Float32Array(0);
    const x = this.hidden(ids);
    const pairs = ids.slice(1).flatMap((token, i) => [i, token]);
    return logprobsCpu(
      x,
      this.config.hidden,
      this.store.get(this.config.tied ? "embed" : "lmHead"),
      this.config.vocab,
      pairs,
    );
  }

  async score(request: ScoreRequest): Promise<ScoreResult> {
    checkRequest(this.config, request);
    const lp = request.prefix.length;
    const sequences = request.candidates.length ? request.candidates : [[]];
    let prefix = new Float32Array(0);
    const candidates: Float32Array[] = [];
    for (const tokens of sequences) {
      const all = this.sequenceLogprobs([...request.prefix, ...tokens]);
      // all[i] scores token i + 1.
      if (!candidates.length && lp > request.prefixFrom) prefix = all.slice(request.prefixFrom - 1, lp - 1);
      const own = new Float32Array(tokens.length);
      tokens.forEach((_, j) => (own[j] = lp + j >= 1 ? all[lp + j - 1]! : Number.NaN));
      candidates.push(own);
    }
    const scored = request.candidates.length ? candidates : [];
    const totals = scored.map((values, i) => {
      const [from, to] = scoredSpan(request, i);
      const real = [...values.subarray(from, to)];
      const sum = real.reduce((a, b) => a + b, 0);
      return { sum, mean: real.length ? sum / real.length : Number.NaN };
    });
    return { prefix, candidates: scored, totals };
  }

  dispose(): void {}
}
