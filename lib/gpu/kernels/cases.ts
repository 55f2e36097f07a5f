import type { Gpu } from "../gpu";
import { inverseFrequencies, ropeTable, type RopeScaling } from "../rope-table";
import { floats, ints, seeded } from "../testing/random";
import { encodeWeights, roundTo, type WeightFormat } from "../weight-format";
import { uploadWeights } from "../weights";
import { attention } from "./attention";
import { attentionCpu } from "./attention.cpu";
import { embed } from "./embed";
import { embedCpu } from "./embed.cpu";
import { logprobs, VOCAB_CHUNK } from "./logprobs";
import { logprobsCpu } from "./logprobs.cpu";
import { matmul } from "./matmul";
import { matmulCpu } from "./matmul.cpu";
import { mlp } from "./mlp";
import { mlpCpu } from "./mlp.cpu";
import { rmsnorm } from "./rmsnorm";
import { rmsnormCpu } from "./rmsnorm.cpu";
import { rope } from "./rope";
import { ropeCpu } from "./rope.cpu";
import { l2Normalize } from "./l2-normalize";
import { l2NormalizeCpu } from "./l2-normalize.cpu";
import { layernorm } from "./layernorm";
import { layernormCpu } from "./layernorm.cpu";
import { patches } from "./patches";
import { patchesCpu } from "./patches.cpu";
import { quickGeluMlp } from "./quick-gelu";
import { quickGeluMlpCpu } from "./quick-gelu.cpu";
import { segmentTotals } from "./segments";
import { segmentTotalsCpu } from "./segments.cpu";

// Every kernel against its CPU reference, as a table: shapes with odd sizes, sequence lengths 1, 7
// and 513, batches of 1 and 16 candidates sharing a prefix, each weight format. The same table runs
// on Dawn in Node (kernels.test.ts) and on SwiftShader in Chromium (chromium.test.ts).

export interface KernelCase {
  kernel: string;
  shape: string;
  /** Largest allowed |got − want| / max(1, |want|). */
  tolerance: number;
  run(gpu: Gpu): Promise<{ got: Float32Array; want: Float32Array }>;
}

const FORMATS: WeightFormat[] = ["f32", "f16", "bf16"];

function matmulCase(
  m: number,
  n: number,
  k: number,
  format: WeightFormat,
  extras: { bias?: boolean; residual?: boolean; at?: number },
): KernelCase {
  return {
    kernel: "matmul",
    shape: `${m}x${n}x${k} ${format}${extras.bias ? " +bias" : ""}${extras.residual ? " +residual" : ""}${extras.at ? ` at ${extras.at}` : ""}`,
    tolerance: 2e-5,
    async run(gpu) {
      const random = seeded(m * 7919 + n * 31 + k);
      const at = extras.at ?? 0;
      const x = floats(random, m * k);
      // What the weights' format keeps is what both sides compute with.
      const stored = roundTo(floats(random, at + n * k + n, 0.5), format);
      const residual = extras.residual ? floats(random, m * n) : null;
      const weights = uploadWeights(gpu, stored, format);
      const y = gpu.storage(m * n * 4);
      const batch = gpu.batch();
      matmul(gpu, batch, {
        x: gpu.upload(x),
        y,
        m,
        linear: { weights, n, k, at, biasAt: extras.bias ? at + n * k : null },
        residual: residual ? gpu.upload(residual) : undefined,
      });
      batch.submit();
      const want = matmulCpu(
        x,
        m,
        stored.subarray(at, at + n * k),
        n,
        k,
        extras.bias ? stored.subarray(at + n * k) : null,
        residual,
      );
      return { got: await gpu.readF32(y, m * n), want };
    },
  };
}

function rmsnormCase(rows: number, d: number, format: WeightFormat): KernelCase {
  return {
    kernel: "rmsnorm",
    shape: `${rows}x${d} ${format}`,
    tolerance: 1e-5,
    async run(gpu) {
      const random = seeded(rows * 13 + d);
      const x = floats(random, rows * d, 3);
      const w = roundTo(floats(random, d), format);
      const y = gpu.storage(rows * d * 4);
      const batch = gpu.batch();
      rmsnorm(gpu, batch, { x: gpu.upload(x), y, rows, d, eps: 1e-6, weights: uploadWeights(gpu, w, format) });
      batch.submit();
      return { got: await gpu.readF32(y, rows * d), want: rmsnormCpu(x, rows, d, w, 1e-6) };
    },
  };
}

function ropeCase(rows: number, heads: number, kvHeads: number, headDim: number, scaling: RopeScaling): KernelCase {
  return {
    kernel: "rope",
    shape: `${rows} rows, ${heads}/${kvHeads} heads of ${headDim}, ${scaling.type}`,
    tolerance: 1e-6,
    async run(gpu) {
      const random = seeded(rows + heads * 100 + headDim);
      const stride = (heads + 2 * kvHeads) * headDim;
      const qkv = floats(random, rows * stride);
      const positions = ints(random, rows, 600);
      const table = ropeTable(inverseFrequencies({ theta: 10000, headDim, scaling }), 600);
      const qkvBuffer = gpu.upload(qkv);
      const k = gpu.storage(rows * kvHeads * headDim * 4);
      const v = gpu.storage(rows * kvHeads * headDim * 4);
      const batch = gpu.batch();
      rope(gpu, batch, {
        qkv: qkvBuffer,
        k,
        v,
        table: gpu.upload(table),
        positions: gpu.upload(positions),
        rows,
        heads,
        kvHeads,
        headDim,
      });
      batch.submit();
      const want = ropeCpu(qkv, rows, heads, kvHeads, headDim, table, positions);
      const got = [
        await gpu.readF32(qkvBuffer, qkv.length),
        await gpu.readF32(k, want.k.length),
        await gpu.readF32(v, want.v.length),
      ];
      return { got: concat(got), want: concat([want.qkv, want.k, want.v]) };
    },
  };
}

/** Candidates of random lengths (1 … maxLength) after a shared prefix, as the scorer packs them. */
function attentionCase(
  prefixLength: number,
  candidates: number,
  maxLength: number,
  heads: number,
  kvHeads: number,
  headDim: number,
  causal = true,
): KernelCase {
  return {
    kernel: "attention",
    shape: `prefix ${prefixLength}, ${candidates} candidate(s) of ≤${maxLength}, ${heads}/${kvHeads} heads of ${headDim}${causal ? "" : ", not causal"}`,
    tolerance: 2e-5,
    async run(gpu) {
      const random = seeded(prefixLength * 17 + candidates * 5 + headDim + (causal ? 0 : 1));
      const lengths = Array.from({ length: candidates }, () => 1 + Math.floor(random() * maxLength));
      const rows = lengths.reduce((a, b) => a + b, 0);
      const segments = new Uint32Array(rows * 2);
      let at = 0;
      for (const n of lengths) {
        for (let i = 0; i < n; i++) segments.set([at, at + n], (at + i) * 2);
        at += n;
      }
      const qStride = (heads + 2 * kvHeads) * headDim;
      const q = floats(random, rows * qStride, 2);
      const kvSize = kvHeads * headDim;
      const prefixK = floats(random, Math.max(1, prefixLength * kvSize), 2);
      const prefixV = floats(random, Math.max(1, prefixLength * kvSize));
      const k = floats(random, rows * kvSize, 2);
      const v = floats(random, rows * kvSize);
      const out = gpu.storage(rows * heads * headDim * 4);
      const batch = gpu.batch();
      attention(gpu, batch, {
        q: gpu.upload(q),
        qStride,
        k: gpu.upload(k),
        v: gpu.upload(v),
        segments: gpu.upload(segments),
        out,
        rows,
        heads,
        kvHeads,
        headDim,
        prefix: { k: gpu.upload(prefixK), v: gpu.upload(prefixV), length: prefixLength },
        causal,
      });
      batch.submit();
      const want = attentionCpu({
        q,
        qStride,
        rows,
        heads,
        kvHeads,
        headDim,
        prefixK,
        prefixV,
        prefixLength,
        k,
        v,
        segments,
        causal,
      });
      return { got: await gpu.readF32(out, want.length), want };
    },
  };
}

function mlpCase(rows: number, d: number, inner: number, format: WeightFormat): KernelCase {
  return {
    kernel: "mlp",
    shape: `${rows}x${d}, inner ${inner}, ${format}`,
    tolerance: 5e-5,
    async run(gpu) {
      const random = seeded(rows * 3 + d * 7 + inner);
      const x = floats(random, rows * d);
      const residual = floats(random, rows * d);
      const gateUp = roundTo(floats(random, 2 * inner * d, 0.5), format);
      const down = roundTo(floats(random, d * inner, 0.5), format);
      const y = gpu.storage(rows * d * 4);
      const batch = gpu.batch();
      mlp(gpu, batch, {
        x: gpu.upload(x),
        y,
        residual: gpu.upload(residual),
        rows,
        gateUp: { weights: uploadWeights(gpu, gateUp, format), n: 2 * inner, k: d },
        down: { weights: uploadWeights(gpu, down, format), n: d, k: inner },
        gateUpOut: gpu.storage(rows * 2 * inner * 4),
        hidden: gpu.storage(rows * inner * 4),
      });
      batch.submit();
      return { got: await gpu.readF32(y, rows * d), want: mlpCpu(x, rows, d, gateUp, down, inner, residual) };
    },
  };
}

/** The table split in two buffers at `split` (a multiple of the vocabulary chunk), as a large one is. */
function vocabParts(
  gpu: Gpu,
  table: Float32Array,
  vocab: number,
  d: number,
  format: WeightFormat,
  split: number | null,
) {
  const cuts = split ? [0, split, vocab] : [0, vocab];
  return cuts.slice(0, -1).map((begin, i) => {
    const end = cuts[i + 1]!;
    const bytes = encodeWeights(table.subarray(begin * d, end * d), format);
    return { weights: { buffer: gpu.upload(bytes), format, elements: (end - begin) * d }, begin, end };
  });
}

function embedCase(rows: number, vocab: number, d: number, format: WeightFormat, split: number | null): KernelCase {
  return {
    kernel: "embed",
    shape: `${rows} ids, ${vocab}x${d} ${format}${split ? `, split at ${split}` : ""}`,
    tolerance: 0,
    async run(gpu) {
      const random = seeded(rows + vocab + d);
      const table = roundTo(floats(random, vocab * d), format);
      const ids = ints(random, rows, vocab);
      const out = gpu.storage(rows * d * 4);
      const batch = gpu.batch();
      embed(gpu, batch, { ids: gpu.upload(ids), out, rows, d, parts: vocabParts(gpu, table, vocab, d, format, split) });
      batch.submit();
      return { got: await gpu.readF32(out, rows * d), want: embedCpu(table, d, ids) };
    },
  };
}

function logprobsCase(rows: number, vocab: number, d: number, format: WeightFormat, split: number | null): KernelCase {
  return {
    kernel: "logprobs",
    shape: `${rows} rows, vocabulary ${vocab}x${d} ${format}${split ? `, split at ${split}` : ""}`,
    tolerance: 2e-5,
    async run(gpu) {
      const random = seeded(rows * 11 + vocab + d);
      const x = floats(random, rows * d, 2);
      const table = roundTo(floats(random, vocab * d), format);
      // Every row once, then the last row again with other targets (a prefix's last row predicts each candidate's first token).
      const count = rows + 5;
      const pairs = new Uint32Array(count * 2);
      for (let p = 0; p < count; p++) pairs.set([Math.min(p, rows - 1), Math.floor(random() * vocab)], p * 2);
      const chunks = Math.ceil(vocab / VOCAB_CHUNK);
      const out = gpu.storage(count * 4);
      const batch = gpu.batch();
      logprobs(gpu, batch, {
        x: gpu.upload(x),
        rows,
        d,
        parts: vocabParts(gpu, table, vocab, d, format, split),
        pairs: gpu.upload(pairs),
        count,
        partials: gpu.storage(rows * chunks * 8),
        out,
      });
      batch.submit();
      return { got: await gpu.readF32(out, count), want: logprobsCpu(x, d, table, vocab, pairs) };
    },
  };
}

function segmentsCase(values: number, segments: number): KernelCase {
  return {
    kernel: "segments",
    shape: `${values} values, ${segments} segments`,
    tolerance: 1e-5,
    async run(gpu) {
      const random = seeded(values + segments);
      const v = floats(random, values, 5);
      const ranges = new Uint32Array(segments * 2);
      for (let s = 0; s < segments; s++) {
        const a = Math.floor(random() * values);
        // Some empty segments (their mean is NaN) and one spanning everything.
        const b = s === 0 ? values : s % 5 === 4 ? a : a + Math.floor(random() * (values - a));
        ranges.set([s === 0 ? 0 : a, b], s * 2);
      }
      const totals = gpu.storage(segments * 8);
      const batch = gpu.batch();
      segmentTotals(gpu, batch, { values: gpu.upload(v), ranges: gpu.upload(ranges), totals, count: segments });
      batch.submit();
      return {
        got: await gpu.readF32(totals, segments * 2),
        want: Float32Array.from(segmentTotalsCpu(v, ranges).flatMap((t) => [t.sum, t.mean])),
      };
    },
  };
}

/** Rows `xStride` apart when it is larger than d (CLIP's pooling reads each image's class token). */
function layernormCase(rows: number, d: number, format: WeightFormat, xStride = d): KernelCase {
  return {
    kernel: "layernorm",
    shape: `${rows}x${d} ${format}${xStride !== d ? `, rows ${xStride} apart` : ""}`,
    tolerance: 1e-5,
    async run(gpu) {
      const random = seeded(rows * 29 + d + xStride);
      // Rows offset from zero, where a one-pass variance would lose digits.
      const x = floats(random, rows * xStride, 3).map((v, i) => v + (Math.floor(i / xStride) % 3) * 40);
      const gammaBeta = roundTo(floats(random, 2 * d), format);
      const y = gpu.storage(rows * d * 4);
      const batch = gpu.batch();
      layernorm(gpu, batch, {
        x: gpu.upload(x),
        y,
        rows,
        d,
        eps: 1e-5,
        weights: uploadWeights(gpu, gammaBeta, format),
        xStride,
      });
      batch.submit();
      return {
        got: await gpu.readF32(y, rows * d),
        want: layernormCpu(x, rows, d, gammaBeta.subarray(0, d), gammaBeta.subarray(d), 1e-5, xStride),
      };
    },
  };
}

function quickGeluMlpCase(rows: number, d: number, inner: number, format: WeightFormat): KernelCase {
  return {
    kernel: "quick-gelu-mlp",
    shape: `${rows}x${d}, inner ${inner}, ${format}`,
    tolerance: 5e-5,
    async run(gpu) {
      const random = seeded(rows * 5 + d * 11 + inner);
      const x = floats(random, rows * d, 2);
      const residual = floats(random, rows * d);
      // Each layer's matrix and its bias right after it, as the loader stores them.
      const fc1 = roundTo(floats(random, inner * d + inner, 0.5), format);
      const fc2 = roundTo(floats(random, d * inner + d, 0.5), format);
      const y = gpu.storage(rows * d * 4);
      const batch = gpu.batch();
      quickGeluMlp(gpu, batch, {
        x: gpu.upload(x),
        y,
        residual: gpu.upload(residual),
        rows,
        fc1: { weights: uploadWeights(gpu, fc1, format), n: inner, k: d, biasAt: inner * d },
        fc2: { weights: uploadWeights(gpu, fc2, format), n: d, k: inner, biasAt: d * inner },
        hidden: gpu.storage(rows * inner * 4),
      });
      batch.submit();
      const want = quickGeluMlpCpu(
        x,
        rows,
        d,
        fc1.subarray(0, inner * d),
        fc1.subarray(inner * d),
        fc2.subarray(0, d * inner),
        fc2.subarray(d * inner),
        inner,
        residual,
      );
      return { got: await gpu.readF32(y, rows * d), want };
    },
  };
}

function l2NormalizeCase(rows: number, d: number): KernelCase {
  return {
    kernel: "l2-normalize",
    shape: `${rows}x${d}`,
    tolerance: 1e-6,
    async run(gpu) {
      const random = seeded(rows * 3 + d);
      const x = floats(random, rows * d, 4);
      // A zero row stays zero.
      x.fill(0, 0, d);
      const buffer = gpu.upload(x);
      const batch = gpu.batch();
      l2Normalize(gpu, batch, { x: buffer, rows, d });
      batch.submit();
      return { got: await gpu.readF32(buffer, rows * d), want: l2NormalizeCpu(x, rows, d) };
    },
  };
}

function patchesCase(images: number, size: number, patch: number): KernelCase {
  return {
    kernel: "patches",
    shape: `${images} image(s) of ${size}, patch ${patch}`,
    tolerance: 0,
    async run(gpu) {
      const random = seeded(images * 7 + size + patch);
      const pixels = floats(random, images * 3 * size * size, 2);
      const tokens = 1 + (size / patch) ** 2;
      const out = gpu.storage(images * tokens * 3 * patch * patch * 4);
      const batch = gpu.batch();
      patches(gpu, batch, { pixels: gpu.upload(pixels), out, images, size, patch });
      batch.submit();
      const want = patchesCpu(pixels, images, size, patch);
      return { got: await gpu.readF32(out, want.length), want };
    },
  };
}

function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const llama3: RopeScaling = {
  type: "llama3",
  factor: 8,
  lowFreqFactor: 1,
  highFreqFactor: 4,
  originalMaxPositions: 64,
};

export const KERNEL_CASES: KernelCase[] = [
  ...FORMATS.map((f) => matmulCase(7, 33, 17, f, { bias: true, residual: true })),
  matmulCase(1, 67, 129, "f32", {}),
  // Decode steps' rows (matvec.wgsl): every format, bias and residual, an offset, K not a multiple of 32.
  matmulCase(1, 300, 70, "f16", { bias: true, residual: true }),
  matmulCase(4, 33, 65, "bf16", { bias: true, at: 5 }),
  matmulCase(3, 9, 31, "f32", { residual: true }),
  matmulCase(513, 65, 31, "f16", { bias: true }),
  matmulCase(16, 9, 300, "bf16", { residual: true, at: 37 }),
  matmulCase(5, 7, 3, "f16", { at: 3 }),
  rmsnormCase(1, 37, "f32"),
  rmsnormCase(7, 300, "bf16"),
  rmsnormCase(513, 64, "f16"),
  ropeCase(1, 4, 2, 16, { type: "default" }),
  ropeCase(7, 6, 2, 10, llama3),
  ropeCase(513, 2, 1, 64, { type: "linear", factor: 2 }),
  attentionCase(0, 1, 1, 2, 1, 8),
  attentionCase(0, 1, 513, 4, 2, 16),
  attentionCase(7, 1, 7, 4, 4, 24),
  attentionCase(1, 16, 9, 6, 2, 16),
  attentionCase(513, 16, 7, 4, 2, 16),
  attentionCase(7, 3, 20, 2, 1, 128),
  attentionCase(5, 4, 19, 4, 2, 16, false),
  mlpCase(1, 37, 45, "f32"),
  mlpCase(7, 64, 96, "bf16"),
  mlpCase(513, 24, 35, "f16"),
  embedCase(7, 300, 17, "f32", null),
  embedCase(513, 2500, 9, "f16", 2048),
  logprobsCase(1, 101, 33, "f32", null),
  logprobsCase(7, 2500, 37, "bf16", 1024),
  logprobsCase(70, 1500, 16, "f16", null),
  segmentsCase(1, 1),
  segmentsCase(513, 16),
  layernormCase(1, 37, "f32"),
  layernormCase(7, 300, "f16"),
  layernormCase(3, 64, "bf16", 10 * 64),
  layernormCase(513, 768, "f32"),
  quickGeluMlpCase(1, 37, 45, "f32"),
  quickGeluMlpCase(50, 64, 128, "f16"),
  l2NormalizeCase(1, 5),
  l2NormalizeCase(9, 512),
  patchesCase(1, 96, 32),
  patchesCase(3, 12, 4),
  // CLIP's attention: each image's tokens see all of that image's tokens (one segment per image).
  attentionCase(0, 3, 50, 4, 4, 64, false),
];
