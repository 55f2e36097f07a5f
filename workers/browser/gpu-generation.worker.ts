/// <reference lib="webworker" />
// A module Web Worker on the collaborator's seat: loads the policy the studio serves onto the
// browser's GPU (WebGPU) once, with progress and its weights kept in the browser's cache, then
// writes each agent turn it is sent (the agent's prompt in the model's chat template; prefill, KV
// cache, decode; greedy or seeded temperature/top-p; end tokens), streaming the text as it comes.
import {
  cachingFetch,
  explainLoadError,
  memoryNeed,
  memoryVerdict,
  type GenerationMessage,
  type GenerationRequest,
} from "../../lib/gpu/browser-generation";
import { NoAdapterError } from "../../lib/gpu/gpu";
import { LocalGenerator } from "../../lib/gpu/generate/local-generator";
import { parseConfig } from "../../lib/gpu/model/config";
import { GpuModel } from "../../lib/gpu/model/gpu-model";
import { checkpointFiles } from "../../lib/gpu/model/layout";
import { jsonFile, urlSource } from "../../lib/gpu/model/source";
import { ModelTokenizer } from "../../lib/gpu/model/tokenizer";
import { openBrowserGpu } from "../../lib/gpu/open-browser";

const post = (message: GenerationMessage) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(message);

let generator: LocalGenerator | null = null;

async function load(request: Extract<GenerationRequest, { type: "load" }>): Promise<void> {
  let gpu;
  try {
    gpu = await openBrowserGpu();
  } catch (error) {
    if (error instanceof NoAdapterError) return post({ type: "error", kind: "no-webgpu", message: error.message });
    throw error;
  }
  post({
    type: "adapter",
    device: `${gpu.info.description || gpu.info.architecture || gpu.info.vendor || "WebGPU"}${gpu.info.software ? " (software)" : ""}`,
  });
  const cache = await (self.caches?.open("colbench-weights") ?? Promise.resolve(null)).catch(() => null);
  let cachedFiles = 0;
  let cachedBytes = 0;
  const source = urlSource(
    request.weightsBase,
    cachingFetch(cache, (r) => {
      if (!r.hit) return;
      cachedFiles++;
      cachedBytes += r.bytes;
    }),
  );
  const config = parseConfig(await jsonFile(source, "config.json"), `${source.where}/config.json`);
  const files = await checkpointFiles(source);
  const weightBytes = (await Promise.all(files.map((f) => source.size(f)))).reduce((a, b) => a + b, 0);
  const need = memoryNeed(config, weightBytes, request.tokens);
  const deviceMemoryGb = (navigator as Navigator & { deviceMemory?: number }).deviceMemory;
  const refusal = memoryVerdict({ need, deviceMemoryGb });
  if (refusal) return post({ type: "error", kind: "memory", message: refusal });
  const tokenizer = await ModelTokenizer.load(source);
  // The bar from the start: the runner reports every 4 MiB and at each file's end.
  post({ type: "loading", loaded: 0, total: weightBytes, cachedFiles, cachedBytes, files: files.length });
  gpu.device.pushErrorScope("out-of-memory");
  let engine: GpuModel;
  try {
    engine = await GpuModel.load(gpu, source, {
      onProgress: (p) =>
        post({ type: "loading", loaded: p.loaded, total: p.total, cachedFiles, cachedBytes, files: files.length }),
    });
  } catch (error) {
    await gpu.device.popErrorScope().catch(() => null);
    return post({ type: "error", ...explainLoadError((error as Error).message, need) });
  }
  const outOfMemory = await gpu.device.popErrorScope();
  if (outOfMemory) return post({ type: "error", ...explainLoadError(`out of memory: ${outOfMemory.message}`, need) });
  post({ type: "loading", loaded: weightBytes, total: weightBytes, cachedFiles, cachedBytes, files: files.length });
  generator = await LocalGenerator.load(engine, tokenizer, source, request.model);
  post({ type: "ready", template: generator.template, weightBytes });
}

async function write(request: Extract<GenerationRequest, { type: "generate" }>): Promise<void> {
  if (!generator) throw new Error("the model is not loaded");
  const out = await generator.chat(request.messages, {
    maxNewTokens: request.maxNewTokens,
    sampling: request.sampling,
    onText: (piece, step) => post({ type: "text", id: request.id, piece, tokens: step.tokens }),
  });
  post({
    type: "done",
    id: request.id,
    text: out.text,
    finish: out.finish,
    promptTokens: out.promptTokens,
    completionTokens: out.ids.length,
    firstTokenMs: out.timing.firstTokenMs,
    decodeMs: out.timing.decodeMs,
  });
}

self.onmessage = (event: MessageEvent<GenerationRequest>) => {
  const request = event.data;
  const work = request.type === "load" ? load(request) : write(request);
  work.catch((error: Error) => post({ type: "error", kind: "failed", message: error.message }));
};
