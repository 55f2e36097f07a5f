/// <reference lib="webworker" />
// A module Web Worker on the replay page: loads the critic and the policy the studio serves onto the
// browser's GPU (WebGPU), with progress, scores the episode's agent turns and their candidates in the
// run's recorded definition (template, sum or mean, final answer or not), and posts the scores back
// (the page keeps them as the browser's own record). The main thread stays free while it works.
// Live advantages send one request per stored agent turn (`only`, `keep`): the models stay loaded
// between them, and requests are answered one at a time, in order.
import { usedDefinition, type ScoreRequestMessage, type ScoringMessage } from "../../lib/gpu/browser-scoring";
import type { Gpu } from "../../lib/gpu/gpu";
import { GpuModel } from "../../lib/gpu/model/gpu-model";
import { LocalScorer } from "../../lib/gpu/model/scorer";
import { urlSource } from "../../lib/gpu/model/source";
import { ModelTokenizer } from "../../lib/gpu/model/tokenizer";
import { openBrowserGpu } from "../../lib/gpu/open-browser";
import { scoreEpisode } from "../../lib/gpu/score-episode";
import { scoringDefinition } from "../../lib/sweet/scoring-definition";

const post = (message: ScoringMessage) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(message);

interface Loaded {
  weightsBase: string;
  gpu: Gpu;
  device: string;
  critic: LocalScorer;
  policy: LocalScorer;
}

/** The models kept between live requests. */
let kept: Loaded | null = null;

async function load(weightsBase: string): Promise<Loaded> {
  const gpu = await openBrowserGpu();
  const device = `${gpu.info.description || gpu.info.architecture || gpu.info.vendor || "WebGPU"}${gpu.info.software ? " (software)" : ""}`;
  post({ type: "adapter", device });
  const open = async (model: "critic" | "policy") => {
    const source = urlSource(`${weightsBase}/${model}`);
    const tokenizer = await ModelTokenizer.load(source);
    const engine = await GpuModel.load(gpu, source, {
      onProgress: (p) => post({ type: "loading", model, loaded: p.loaded, total: p.total }),
    });
    // The studio records the served folders' names with the scores.
    return new LocalScorer(engine, tokenizer, model);
  };
  const critic = await open("critic");
  const policy = await open("policy");
  return { weightsBase, gpu, device, critic, policy };
}

function release(models: Loaded): void {
  models.critic.dispose();
  models.policy.dispose();
  models.gpu.destroy();
}

async function score(request: ScoreRequestMessage): Promise<void> {
  if (kept && kept.weightsBase !== request.weightsBase) {
    release(kept);
    kept = null;
  }
  const models = kept ?? (await load(request.weightsBase));
  if (kept) post({ type: "adapter", device: models.device });
  kept = request.keep ? models : null;
  const { critic, policy } = models;
  try {
    // The run's recorded template and rank settings; where the run has none, what `rank
    // --critic-weights` would choose and record for it (the critic's own template family).
    const definition = scoringDefinition(
      { template: request.inputs.template, settings: request.inputs.settings },
      critic.tokenizer.templateFamily(),
    );
    post({ type: "definition", definition: usedDefinition(definition) });
    const turns = await scoreEpisode(request.inputs, critic, policy, {
      definition,
      only: request.only,
      onTurn: (done, total) => post({ type: "scoring", done, total }),
    });
    post({ type: "done", turns, definition: usedDefinition(definition) });
  } finally {
    if (!request.keep) release(models);
  }
}

let queue = Promise.resolve();
self.onmessage = (event: MessageEvent<ScoreRequestMessage>) => {
  queue = queue.then(() => score(event.data).catch((error: Error) => post({ type: "error", message: error.message })));
};
