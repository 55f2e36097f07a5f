// Prompt scoring on WebGPU against the CPU reference in the same run: 16 candidates × 256 tokens
// after one 1024-token shared prefix (the prefix runs once; the vocabulary is met only at the 4096
// candidate positions), for a tiny shape and the Qwen2.5-0.5B shape, with random weights generated
// here (nothing is downloaded or committed) and loaded through the real safetensors path.
//
//   npx tsx bench/webgpu-logprobs.ts [--shape tiny|qwen2.5-0.5b|all] [--dtype f16|bf16|f32]
//       [--full] [--runs N] [--peak-tflops T] [--save DIR] [--prefix 1024] [--candidates 16] [--length 256]
//
// On a software adapter (no GPU: Mesa's llvmpipe through Dawn's OpenGL ES) the 0.5B shape is too
// slow to run whole, so unless --full it is measured as exactly this: the whole request through a
// 1-layer and a 2-layer model of that shape (same hidden size, heads, MLP and vocabulary); their
// difference is one decoder layer, the rest is embedding + LM head + fixed costs, and 24 layers are
// extrapolated from those. The CPU reference (the kernels' plain-TypeScript references, which run
// each candidate whole, prefix included) is timed on one decoder layer for 32 candidate rows and
// on the LM head for 4 rows, and extrapolated to its own way of doing the request.
// --save DIR writes the weights and the request so PyTorch can time the same thing
// (bench/webgpu_logprobs_torch.py, for a GPU machine; see lib/gpu/README.md).

import fs from "node:fs";
import path from "node:path";
import "../lib/gpu/node/register-wgsl.mjs";
import type { ModelConfig } from "../lib/gpu/model/config";
import type { WeightSource } from "../lib/gpu/model/source";
import type { Batch, Gpu } from "../lib/gpu/gpu";
import type { VocabPart } from "../lib/gpu/kernels/embed";
import type { GpuModel as GpuModelType } from "../lib/gpu/model/gpu-model";
import type { WeightFormat } from "../lib/gpu/weight-format";

// The GPU modules import WGSL as text: loaded after the hook above is registered.
const { openNodeGpu } = await import("../lib/gpu/node/open");
const { GpuModel } = await import("../lib/gpu/model/gpu-model");
const { CpuModel } = await import("../lib/gpu/model/cpu-model");
const { parseConfig } = await import("../lib/gpu/model/config");
const { planLayout } = await import("../lib/gpu/model/layout");
const { attention } = await import("../lib/gpu/kernels/attention");
const { logprobs, VOCAB_CHUNK } = await import("../lib/gpu/kernels/logprobs");
const { matmul } = await import("../lib/gpu/kernels/matmul");
const { mlp } = await import("../lib/gpu/kernels/mlp");
const { rmsnorm } = await import("../lib/gpu/kernels/rmsnorm");
const { rope } = await import("../lib/gpu/kernels/rope");
const { uploadWeights } = await import("../lib/gpu/weights");
const { attentionCpu } = await import("../lib/gpu/kernels/attention.cpu");
const { matmulCpu } = await import("../lib/gpu/kernels/matmul.cpu");
const { mlpCpu } = await import("../lib/gpu/kernels/mlp.cpu");
const { rmsnormCpu } = await import("../lib/gpu/kernels/rmsnorm.cpu");
const { ropeCpu } = await import("../lib/gpu/kernels/rope.cpu");
const { logprobsCpu } = await import("../lib/gpu/kernels/logprobs.cpu");
const { inverseFrequencies, ropeTable } = await import("../lib/gpu/rope-table");
const { floats, seeded } = await import("../lib/gpu/testing/random");
const { encodeWeights } = await import("../lib/gpu/weight-format");

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const SHAPE = option("shape", "all");
const DTYPE = option("dtype", "f16") as WeightFormat;
const RUNS = Number(option("runs", "3"));
const FULL = args.includes("--full");
const SAVE = args.includes("--save") ? option("save", "") : null;
const PEAK = args.includes("--peak-tflops") ? Number(option("peak-tflops", "0")) * 1e12 : null;
// The request's size: issue 37's by default; smaller for a smoke test of the machinery (bench/gpu/run.py --smoke).
const PREFIX = Number(option("prefix", "1024"));
const CANDIDATES = Number(option("candidates", "16"));
const LENGTH = Number(option("length", "256"));
for (const [name, n] of Object.entries({ prefix: PREFIX, candidates: CANDIDATES, length: LENGTH })) {
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: expected a positive whole number, got ${n}`);
}

const SHAPES: Record<string, Record<string, unknown>> = {
  tiny: {
    hidden_size: 64,
    intermediate_size: 128,
    num_hidden_layers: 2,
    num_attention_heads: 4,
    num_key_value_heads: 2,
    vocab_size: 1024,
  },
  // Qwen2.5-0.5B's config.json numbers.
  "qwen2.5-0.5b": {
    hidden_size: 896,
    intermediate_size: 4864,
    num_hidden_layers: 24,
    num_attention_heads: 14,
    num_key_value_heads: 2,
    vocab_size: 151936,
  },
};

function configJson(shape: string, layers?: number): Record<string, unknown> {
  return {
    model_type: "qwen2",
    hidden_act: "silu",
    max_position_embeddings: 32768,
    rms_norm_eps: 1e-6,
    rope_theta: 1000000.0,
    tie_word_embeddings: true,
    use_sliding_window: false,
    ...SHAPES[shape],
    ...(layers ? { num_hidden_layers: layers } : {}),
  };
}

const DTYPE_NAME: Record<WeightFormat, string> = { f32: "F32", f16: "F16", bf16: "BF16" };

/**
 * A model folder made up on the fly: config.json, and a model.safetensors streamed from a seeded
 * generator (small random weights, norms at 1), never held whole.
 */
function randomModel(config: Record<string, unknown>, format: WeightFormat): WeightSource {
  const parsed = parseConfig(config);
  const layout = planLayout(parsed);
  const tensors = [...layout.required].map((name) => ({ name, shape: layout.place(name)!.shape }));
  const bytesPer = format === "f32" ? 4 : 2;
  let offset = 0;
  const header: Record<string, unknown> = {};
  for (const t of tensors) {
    const bytes = t.shape.reduce((a, b) => a * b, 1) * bytesPer;
    header[t.name] = { dtype: DTYPE_NAME[format], shape: t.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  json += " ".repeat((8 - ((8 + json.length) % 8)) % 8);
  const size = 8 + json.length + offset;
  return {
    where: `random ${String(config.model_type)} ${String(config.hidden_size)}x${String(config.num_hidden_layers)}`,
    text: async (name) => (name === "config.json" ? JSON.stringify(config) : null),
    size: async () => size,
    async stream() {
      const random = seeded(7);
      const queue = tensors.values();
      let current: { left: number; norm: boolean } | null = null;
      return new ReadableStream<Uint8Array>({
        start(controller) {
          const head = new Uint8Array(8 + json.length);
          new DataView(head.buffer).setBigUint64(0, BigInt(json.length), true);
          head.set(new TextEncoder().encode(json), 8);
          controller.enqueue(head);
        },
        pull(controller) {
          while (!current || current.left === 0) {
            const next = queue.next();
            if (next.done) return controller.close();
            current = {
              left: next.value.shape.reduce((a, b) => a * b, 1),
              norm: next.value.name.endsWith("norm.weight"),
            };
          }
          const n = Math.min(current.left, 1 << 20);
          current.left -= n;
          const values = current.norm ? new Float32Array(n).fill(1) : floats(random, n, 0.03);
          controller.enqueue(encodeWeights(values, format));
        },
      });
    },
  };
}

function request(vocab: number) {
  const random = seeded(11);
  const ids = (n: number) => Array.from({ length: n }, () => Math.floor(random() * vocab));
  return { prefix: ids(PREFIX), candidates: Array.from({ length: CANDIDATES }, () => ids(LENGTH)), prefixFrom: PREFIX };
}

/** Multiply-adds × 2 of the request as the GPU runner does it (prefix once, head at candidate rows). */
function flops(c: ModelConfig, layers = c.layers): number {
  const q = c.heads * c.headDim;
  const kv = c.kvHeads * c.headDim;
  const perToken = 2 * (c.hidden * (q + 2 * kv) + q * c.hidden + 3 * c.inner * c.hidden);
  const attention = (context: number) => 4 * context * c.heads * c.headDim;
  let total = 0;
  for (let i = 0; i < PREFIX; i++) total += layers * (perToken + attention(i + 1));
  for (let j = 0; j < LENGTH; j++) total += CANDIDATES * layers * (perToken + attention(PREFIX + j + 1));
  return total + CANDIDATES * LENGTH * 2 * c.hidden * c.vocab;
}

/** fp32 (non-tensor-core) peaks: the WGSL kernels multiply in f32 with fma. */
function peakOf(description: string): { flops: number; what: string } | null {
  if (PEAK) return { flops: PEAK, what: "given with --peak-tflops" };
  if (/H100.*PCIe/i.test(description)) return { flops: 51e12, what: "H100 PCIe fp32" };
  if (/H100|H200/i.test(description)) return { flops: 67e12, what: "H100/H200 SXM fp32" };
  return null;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rate = (tokens: number, ms: number) => {
  const perSecond = (tokens * 1000) / ms;
  return `${perSecond >= 100 ? Math.round(perSecond).toLocaleString("en-US") : perSecond.toPrecision(2)} tok/s`;
};
const summary: Record<string, unknown> = {};

async function timeGpu(model: GpuModelType, req: ReturnType<typeof request>, runs: number) {
  // Warm-up: pipelines compile on first use.
  await model.score({ prefix: req.prefix.slice(0, 8), candidates: [req.candidates[0]!.slice(0, 8)], prefixFrom: 8 });
  const times: number[] = [];
  let result: Awaited<ReturnType<typeof model.score>> | null = null;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    result = await model.score(req);
    times.push(performance.now() - t);
  }
  return { ms: median(times), result: result! };
}

async function main() {
  const gpu = await openNodeGpu();
  const device = `${gpu.info.graphicsApi}: ${gpu.info.description || gpu.info.architecture || gpu.info.vendor}${gpu.info.software ? " (software)" : ""}`;
  const peak = peakOf(`${gpu.info.description} ${gpu.info.vendor} ${gpu.info.architecture}`);
  console.log(
    `adapter ${device}; shader-f16 ${gpu.info.f16 ? "yes" : "no"}; weights ${DTYPE}; request: ${CANDIDATES} candidates x ${LENGTH} tokens after a ${PREFIX}-token prefix (${CANDIDATES * LENGTH} scored tokens)`,
  );
  console.log(
    peak
      ? `peak: ${(peak.flops / 1e12).toFixed(0)} TFLOP/s (${peak.what})`
      : "peak FLOP/s of this adapter: unknown (pass --peak-tflops T)",
  );
  summary.adapter = device;

  for (const shape of SHAPE === "all" ? Object.keys(SHAPES) : [SHAPE]) {
    if (!SHAPES[shape]) throw new Error(`--shape: ${shape} is not one of ${Object.keys(SHAPES).join(", ")}`);
    const config = parseConfig(configJson(shape));
    const req = request(config.vocab);
    const scored = CANDIDATES * LENGTH;
    console.log(
      `\n== ${shape}: hidden ${config.hidden}, ${config.layers} layers, ${config.heads}/${config.kvHeads} heads, MLP ${config.inner}, vocabulary ${config.vocab}`,
    );
    if (SAVE) await saveForTorch(path.join(SAVE, shape), configJson(shape), req);
    const whole = shape === "tiny" || FULL || !gpu.info.software;
    if (whole) {
      const load = performance.now();
      const model = await GpuModel.load(gpu, randomModel(configJson(shape), DTYPE));
      console.log(
        `loaded ${(model.weightBytes / 1e6).toFixed(0)} MB of weights onto the adapter in ${secs(performance.now() - load)}`,
      );
      const g = await timeGpu(model, req, shape === "tiny" ? RUNS : Math.min(RUNS, 3));
      model.dispose();
      // For the PyTorch script to compare its log-probs with these (same weights, same tokens).
      if (SAVE)
        fs.writeFileSync(
          path.join(SAVE, shape, "webgpu-logprobs.json"),
          JSON.stringify(g.result.candidates.map((c) => [...c])),
        );
      const f = flops(config);
      const achieved = (f * 1000) / g.ms;
      console.log(
        `webgpu: the whole request in ${secs(g.ms)} (median of ${shape === "tiny" ? RUNS : Math.min(RUNS, 3)}): ${rate(scored, g.ms)} scored, ${rate(PREFIX + scored, g.ms)} through the model; ${(achieved / 1e9).toFixed(1)} GFLOP/s${peak ? ` = ${((100 * achieved) / peak.flops).toFixed(1)}% of peak` : ""}`,
      );
      const entry: Record<string, unknown> = {
        webgpu_ms: g.ms,
        webgpu_scored_tok_s: (scored * 1000) / g.ms,
        webgpu_gflops: achieved / 1e9,
        peak_fraction: peak ? achieved / peak.flops : null,
      };
      if (shape === "tiny") {
        const cpu = await CpuModel.load(randomModel(configJson(shape), DTYPE));
        const t = performance.now();
        const reference = await cpu.score(req);
        const cpuMs = performance.now() - t;
        let worst = 0;
        reference.candidates.forEach((values, i) =>
          values.forEach((v, j) => (worst = Math.max(worst, Math.abs(v - g.result.candidates[i]![j]!)))),
        );
        console.log(
          `cpu reference: the whole request in ${secs(cpuMs)} (each candidate run whole): ${rate(scored, cpuMs)} scored`,
        );
        console.log(
          `ratio: webgpu ${(cpuMs / g.ms).toFixed(2)}x the CPU reference's speed; largest log-prob difference ${worst.toExponential(2)}`,
        );
        Object.assign(entry, { cpu_ms: cpuMs, speedup_vs_cpu: cpuMs / g.ms, max_abs_diff: worst });
      } else {
        const cpu = cpuLayerAndHead(config);
        const cpuMs = CANDIDATES * (PREFIX + LENGTH) * (config.layers * cpu.layerPerRow + cpu.headPerRow);
        console.log(
          `cpu reference (extrapolated from one layer on 32 rows and the head on 4): ${secs(cpuMs)} for its way of doing the request; webgpu ${(cpuMs / g.ms).toFixed(1)}x`,
        );
        Object.assign(entry, { cpu_ms_extrapolated: cpuMs, speedup_vs_cpu: cpuMs / g.ms });
      }
      summary[shape] = entry;
      continue;
    }
    // Software adapter, 0.5B shape: one decoder layer and the LM head, timed on part of the batch.
    const g = await gpuLayerAndHead(gpu, config);
    const cpu = cpuLayerAndHead(config);
    const perRequest = (layerPerRow: number, headPerRow: number) =>
      (PREFIX + scored) * config.layers * layerPerRow + scored * headPerRow;
    const gpuMs = perRequest(g.layerPerRow, g.headPerRow);
    const cpuSame = perRequest(cpu.layerPerRow, cpu.headPerRow);
    const cpuOwn = CANDIDATES * (PREFIX + LENGTH) * (config.layers * cpu.layerPerRow + cpu.headPerRow);
    const f = flops(config);
    console.log(
      `measured (the rest is arithmetic): one decoder layer on ${LAYER_ROWS} candidate rows after a ${PREFIX}-row cache, and the LM head (log-softmax + gather over ${config.vocab}) on ${HEAD_ROWS} rows; webgpu the median of 3 (layer) and 2 (head) after a warm-up, the CPU reference once (${CPU_LAYER_ROWS} and ${CPU_HEAD_ROWS} rows)`,
    );
    console.log(
      `webgpu: ${(g.layerPerRow * 1000).toFixed(0)} us/row a layer, ${g.headPerRow.toFixed(1)} ms/row the head; the request extrapolated: ${secs(gpuMs)} = ${rate(scored, gpuMs)} scored, ${((f / gpuMs) * 1e-6).toFixed(2)} GFLOP/s${peak ? ` = ${((100 * f * 1000) / gpuMs / peak.flops).toFixed(2)}% of peak` : ""}`,
    );
    console.log(
      `cpu reference: ${(cpu.layerPerRow * 1000).toFixed(0)} us/row a layer, ${cpu.headPerRow.toFixed(1)} ms/row the head; the same work: ${secs(cpuSame)} (webgpu ${(cpuSame / gpuMs).toFixed(1)}x: a layer ${(cpu.layerPerRow / g.layerPerRow).toFixed(1)}x, the head ${(cpu.headPerRow / g.headPerRow).toFixed(1)}x); its own way (each candidate whole, head at every row): ${secs(cpuOwn)} (webgpu ${(cpuOwn / gpuMs).toFixed(0)}x)`,
    );
    summary[shape] = {
      measured: `one layer on ${LAYER_ROWS} rows after a ${PREFIX}-row cache, the head on ${HEAD_ROWS} rows; the request extrapolated`,
      webgpu_layer_us_per_row: g.layerPerRow * 1000,
      webgpu_head_ms_per_row: g.headPerRow,
      webgpu_request_ms: gpuMs,
      cpu_layer_us_per_row: cpu.layerPerRow * 1000,
      cpu_head_ms_per_row: cpu.headPerRow,
      speedup_same_work: cpuSame / gpuMs,
      speedup_vs_cpu_reference: cpuOwn / gpuMs,
    };
  }
  gpu.destroy();
  console.log(`\n${JSON.stringify(summary)}`);
}

const LAYER_ROWS = 256;
// A whole 64-row tile of the head kernel: fewer rows would leave most of each workgroup idle.
const HEAD_ROWS = 64;
const CPU_LAYER_ROWS = 32;
const CPU_HEAD_ROWS = 4;

/**
 * One decoder layer as GpuModel runs it (norm, fused qkv, rope, attention over a prefix cache and the
 * rows' own keys, output projection, norm, SiLU-gated MLP) on LAYER_ROWS candidate rows, and the
 * fused log-softmax + gather on HEAD_ROWS rows: ms per row of each (medians after a warm-up).
 */
async function gpuLayerAndHead(gpu: Gpu, c: ModelConfig): Promise<{ layerPerRow: number; headPerRow: number }> {
  const random = seeded(5);
  const q = c.heads * c.headDim;
  const kv = c.kvHeads * c.headDim;
  const qkvRows = q + 2 * kv;
  const rows = LAYER_ROWS;
  const w = (n: number, scale = 0.03) => uploadWeights(gpu, floats(random, n, scale), DTYPE);
  const norms = uploadWeights(gpu, new Float32Array(2 * c.hidden).fill(1), DTYPE);
  const qkvW = w(qkvRows * c.hidden + qkvRows);
  const oW = w(c.hidden * q);
  const gateUpW = w(2 * c.inner * c.hidden);
  const downW = w(c.hidden * c.inner);
  const f = (n: number) => gpu.storage(n * 4);
  const b = {
    h0: gpu.upload(floats(random, rows * c.hidden)),
    h1: f(rows * c.hidden),
    x: f(rows * c.hidden),
    qkv: f(rows * qkvRows),
    k: f(rows * kv),
    v: f(rows * kv),
    attn: f(rows * q),
    gateUp: f(rows * 2 * c.inner),
    inner: f(rows * c.inner),
    out: f(rows * c.hidden),
  };
  const cache = {
    k: gpu.upload(floats(random, PREFIX * kv)),
    v: gpu.upload(floats(random, PREFIX * kv)),
    length: PREFIX,
  };
  const table = gpu.upload(ropeTable(inverseFrequencies(c.rope), PREFIX + rows));
  const positions = gpu.upload(Uint32Array.from({ length: rows }, (_, i) => PREFIX + i));
  const segments = gpu.upload(Uint32Array.from({ length: 2 * rows }, (_, i) => (i % 2 ? rows : 0)));
  const heads = { heads: c.heads, kvHeads: c.kvHeads, headDim: c.headDim };
  const layer = (batch: Batch) => {
    rmsnorm(gpu, batch, { x: b.h0, y: b.x, rows, d: c.hidden, eps: c.eps, weights: norms });
    matmul(gpu, batch, {
      x: b.x,
      y: b.qkv,
      m: rows,
      linear: { weights: qkvW, n: qkvRows, k: c.hidden, biasAt: qkvRows * c.hidden },
    });
    rope(gpu, batch, { qkv: b.qkv, k: b.k, v: b.v, table, positions, rows, ...heads });
    attention(gpu, batch, {
      q: b.qkv,
      qStride: qkvRows,
      k: b.k,
      v: b.v,
      segments,
      out: b.attn,
      rows,
      prefix: cache,
      ...heads,
    });
    matmul(gpu, batch, { x: b.attn, y: b.h1, m: rows, linear: { weights: oW, n: c.hidden, k: q }, residual: b.h0 });
    rmsnorm(gpu, batch, { x: b.h1, y: b.x, rows, d: c.hidden, eps: c.eps, weights: norms, at: c.hidden });
    mlp(gpu, batch, {
      x: b.x,
      y: b.out,
      residual: b.h1,
      rows,
      gateUp: { weights: gateUpW, n: 2 * c.inner, k: c.hidden },
      down: { weights: downW, n: c.hidden, k: c.inner },
      gateUpOut: b.gateUp,
      hidden: b.inner,
    });
  };
  // The vocabulary table in parts the adapter can bind, as the loader splits it.
  const perPart = Math.max(
    VOCAB_CHUNK,
    Math.floor(gpu.limits.maxStorageBufferBindingSize / (c.hidden * (DTYPE === "f32" ? 4 : 2)) / VOCAB_CHUNK) *
      VOCAB_CHUNK,
  );
  const parts: VocabPart[] = [];
  for (let begin = 0; begin < c.vocab; begin += perPart) {
    const end = Math.min(c.vocab, begin + perPart);
    parts.push({ weights: w((end - begin) * c.hidden), begin, end });
  }
  const pairs = gpu.upload(
    Uint32Array.from({ length: 2 * HEAD_ROWS }, (_, i) => (i % 2 ? (i * 7919) % c.vocab : i >> 1)),
  );
  const partials = f(HEAD_ROWS * Math.ceil(c.vocab / VOCAB_CHUNK) * 2);
  const lp = f(HEAD_ROWS);
  const head = (batch: Batch) =>
    logprobs(gpu, batch, { x: b.x, rows: HEAD_ROWS, d: c.hidden, parts, pairs, count: HEAD_ROWS, partials, out: lp });
  const time = async (record: (batch: Batch) => void, runs: number) => {
    const times: number[] = [];
    for (let r = 0; r <= runs; r++) {
      const t = performance.now();
      const batch = gpu.batch();
      record(batch);
      batch.submit();
      await gpu.idle();
      if (r > 0) times.push(performance.now() - t);
    }
    return median(times);
  };
  return { layerPerRow: (await time(layer, 3)) / rows, headPerRow: (await time(head, 2)) / HEAD_ROWS };
}

/** The CPU references' time per row: one decoder layer (32 rows after the prefix), the LM head (4 rows). */
function cpuLayerAndHead(c: ModelConfig): { layerPerRow: number; headPerRow: number } {
  const random = seeded(3);
  const rows = CPU_LAYER_ROWS;
  const q = c.heads * c.headDim;
  const kv = c.kvHeads * c.headDim;
  const qkvRows = q + 2 * kv;
  const x = floats(random, rows * c.hidden);
  const w = {
    qkv: floats(random, qkvRows * c.hidden, 0.03),
    o: floats(random, c.hidden * q, 0.03),
    gateUp: floats(random, 2 * c.inner * c.hidden, 0.03),
    down: floats(random, c.hidden * c.inner, 0.03),
    norm: new Float32Array(c.hidden).fill(1),
  };
  const prefixK = floats(random, PREFIX * kv);
  const prefixV = floats(random, PREFIX * kv);
  const table = ropeTable(inverseFrequencies(c.rope), PREFIX + rows);
  const positions = Array.from({ length: rows }, (_, i) => PREFIX + i);
  const segments = Array.from({ length: 2 * rows }, (_, i) => (i % 2 ? rows : 0));
  let t = performance.now();
  const h = rmsnormCpu(x, rows, c.hidden, w.norm, c.eps);
  const r = ropeCpu(
    matmulCpu(h, rows, w.qkv, qkvRows, c.hidden),
    rows,
    c.heads,
    c.kvHeads,
    c.headDim,
    table,
    positions,
  );
  const a = attentionCpu({
    q: r.qkv,
    qStride: qkvRows,
    rows,
    heads: c.heads,
    kvHeads: c.kvHeads,
    headDim: c.headDim,
    prefixK,
    prefixV,
    prefixLength: PREFIX,
    k: r.k,
    v: r.v,
    segments,
  });
  const h1 = matmulCpu(a, rows, w.o, c.hidden, q, null, x);
  mlpCpu(rmsnormCpu(h1, rows, c.hidden, w.norm, c.eps), rows, c.hidden, w.gateUp, w.down, c.inner, h1);
  const layerPerRow = (performance.now() - t) / rows;
  const headRows = CPU_HEAD_ROWS;
  const table2 = floats(random, c.vocab * c.hidden, 0.03);
  t = performance.now();
  logprobsCpu(
    x.subarray(0, headRows * c.hidden),
    c.hidden,
    table2,
    c.vocab,
    Array.from({ length: headRows * 2 }, (_, i) => (i % 2 ? i : i >> 1)),
  );
  return { layerPerRow, headPerRow: (performance.now() - t) / headRows };
}

/** The weights (safetensors) and the request as files, for PyTorch to time the same thing. */
async function saveForTorch(
  dir: string,
  config: Record<string, unknown>,
  req: ReturnType<typeof request>,
): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "config.json"),
    JSON.stringify(
      {
        ...config,
        architectures: ["Qwen2ForCausalLM"],
        torch_dtype: { f16: "float16", bf16: "bfloat16", f32: "float32" }[DTYPE],
      },
      null,
      1,
    ),
  );
  fs.writeFileSync(path.join(dir, "request.json"), JSON.stringify(req));
  const out = fs.createWriteStream(path.join(dir, "model.safetensors"));
  const reader = (await randomModel(config, DTYPE).stream("model.safetensors")).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!out.write(value)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  console.log(`wrote ${dir}/model.safetensors, config.json and request.json for bench/webgpu_logprobs_torch.py`);
}

await main();
process.exit(0);
