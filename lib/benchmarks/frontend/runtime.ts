import { ModelDesignSimulator } from "../../models/model-roles";
import { resolveModel } from "../../hub";
import { CLIP_FILES, CLIP_HUB_ID } from "../../scoring/frontend/embedders/choose";
import type { BenchmarkRuntime } from "../module";
import { openFrontendScorer } from "./open-scorer";
import type { FrontendRunOptions } from "./run-options";

export const frontendRuntime: BenchmarkRuntime = {
  async openScorer(config) {
    // A stored config has been parsed (its defaults filled); a caller's partial one leaves the
    // profile to the pool rather than defaulting to the legacy profile stored configs default to.
    const o = config as Partial<FrontendRunOptions>;
    return openFrontendScorer({
      embedder: o.embedder,
      clipPath: o.clipPath,
      render: o.render,
      placeholderPhoto: o.placeholderPhoto,
    });
  },
  modelSimulator: (client, prompt) => new ModelDesignSimulator(client, prompt),
  async prefetch(config, onProgress) {
    const o = config as Partial<FrontendRunOptions>;
    if (o.embedder !== "clip-vit-b32") return;
    await resolveModel(o.clipPath ?? process.env.COLBENCH_CLIP ?? CLIP_HUB_ID, { files: CLIP_FILES, onProgress });
  },
};
