/// <reference lib="webworker" />
// A module Web Worker beside the collaborator seat: loads CLIP's vision tower from the weights the
// studio serves onto the browser's GPU (WebGPU) once, then for each (agent's page, target) pair of
// renders embeds both screenshots (each render id once) and posts their cosine: the frontend reward
// the agent's current page would get, computed in the tab.
import type { SimilarityMessage, SimilarityRequest } from "../../lib/gpu/clip/browser-similarity";
import { decodePngInBrowser } from "../../lib/scoring/frontend/browser-png";
import { loadClipVisionFrom } from "../../lib/gpu/clip/source";
import { GpuClipVision } from "../../lib/gpu/clip/vision";
import { urlSource } from "../../lib/gpu/model/source";
import { openBrowserGpu } from "../../lib/gpu/open-browser";
import { clipEmbedderId } from "../../lib/gpu/clip/model";
import { clipPreprocess } from "../../lib/scoring/frontend/embedders/clip-preprocess";
import { cosine } from "../../lib/scoring/frontend/similarity";

const post = (message: SimilarityMessage) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(message);

let vision: Promise<GpuClipVision> | null = null;
const embeddings = new Map<string, Promise<Float32Array>>();

function open(weightsBase: string): Promise<GpuClipVision> {
  vision ??= (async () => {
    const gpu = await openBrowserGpu();
    post({
      type: "adapter",
      device: `${gpu.info.description || gpu.info.architecture || gpu.info.vendor || "WebGPU"}${gpu.info.software ? " (software)" : ""}`,
    });
    const model = await loadClipVisionFrom(urlSource(weightsBase), (p) => post({ type: "loading", ...p }));
    return GpuClipVision.load(gpu, model);
  })();
  vision.catch(() => (vision = null));
  return vision;
}

function embedding(model: GpuClipVision, rendersBase: string, id: string): Promise<Float32Array> {
  let pending = embeddings.get(id);
  if (!pending) {
    pending = (async () => {
      const response = await fetch(`${rendersBase}/${encodeURIComponent(id)}`);
      if (!response.ok) throw new Error(`render ${id.slice(0, 12)}…: HTTP ${response.status}`);
      const [vector] = await model.embed([
        clipPreprocess(await decodePngInBrowser(await response.blob()), model.config.imageSize),
      ]);
      return vector!;
    })();
    pending.catch(() => embeddings.delete(id));
    embeddings.set(id, pending);
  }
  return pending;
}

// Requests are answered in order; one arriving while another runs waits for it (the GPU is one).
let queue: Promise<void> = Promise.resolve();

self.onmessage = (event: MessageEvent<SimilarityRequest>) => {
  const request = event.data;
  queue = queue.then(async () => {
    try {
      const model = await open(request.weightsBase);
      post({ type: "embedding" });
      const [a, t] = await Promise.all([
        embedding(model, request.rendersBase, request.agentRenderId),
        embedding(model, request.rendersBase, request.targetRenderId),
      ]);
      post({
        type: "similarity",
        agentRenderId: request.agentRenderId,
        targetRenderId: request.targetRenderId,
        value: cosine(a, t),
        embedder: clipEmbedderId(model.config),
      });
    } catch (error) {
      post({ type: "error", message: (error as Error).message });
    }
  });
};
