/// <reference lib="webworker" />
// A module Web Worker on the replay page: loads the critic and the policy the studio serves onto the
// browser's GPU (WebGPU), with progress, scores the episode's agent turns and their candidates in the
// run's recorded definition (template, sum or mean, final answer or not), and posts the scores back
// (the page keeps them as the browser's own record). The main thread stays free while it works.
import { usedDefinition, type ScoreRequestMessage, type ScoringMessage } from "../../lib/gpu/browser-scoring";
import { GpuModel } from "../../lib/gpu/model/gpu-model";
import { LocalScorer } from "../../lib/gpu/model/scorer";
import { urlSource } from "../../lib/gpu/model/source";
import { ModelTokenizer } from "../../lib/gpu/model/tokenizer";
import { openBrowserGpu } from "../../lib/gpu/open-browser";
import { scoreEpisode } from "../../lib/gpu/score-episode";
import { scoringDefinition } from "../../lib/sweet/scoring-definition";

const post = (message: ScoringMessage) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(message);

async function score(request: ScoreRequestMessage): Promise<void> {
  const gpu = await openBrowserGpu();
  post({
    type: "adapter",
    device: `${gpu.info.description || gpu.info.architecture || gpu.info.vendor || "WebGPU"}${gpu.info.software ? " (software)" : ""}`,
  });
  const open = async (model: "critic" | "policy") => {
    const source = urlSource(`${request.weightsBase}/${model}`);
    const tokenizer = await ModelTokenizer.load(source);
    const engine = await GpuModel.load(gpu, source, {
      onProgress: (p) => post({ type: "loading", model, loaded: p.loaded, total: p.total }),
    });
    // The studio records the served folders' names with the scores.
    return new LocalScorer(engine, tokenizer, model);
  };
  const critic = await open("critic");
  const policy = await open("policy");
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
      onTurn: (done, total) => post({ type: "scoring", done, total }),
    });
    post({ type: "done", turns, definition: usedDefinition(definition) });
  } finally {
    critic.dispose();
    policy.dispose();
    gpu.destroy();
  }
}

self.onmessage = (event: MessageEvent<ScoreRequestMessage>) => {
  score(event.data).catch((error: Error) => post({ type: "error", message: error.message }));
};
