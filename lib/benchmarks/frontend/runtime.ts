import { z } from "zod";
import { ModelDesignSimulator } from "../../models/model-roles";
import type { BenchmarkRuntime } from "../module";
import { frontendRunOptions } from "./index";
import { openFrontendScorer } from "./open-scorer";

const options = z.object(frontendRunOptions);

export const frontendRuntime: BenchmarkRuntime = {
  async openScorer(config) {
    const o = options.parse(config);
    return openFrontendScorer({ embedder: o.embedder, clipPath: o.clipPath, render: o.render, placeholderPhoto: o.placeholderPhoto });
  },
  modelSimulator: (client, prompt) => new ModelDesignSimulator(client, prompt),
};
