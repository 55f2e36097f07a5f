import type { RunConfig } from "../colbench/run-config";
import { BackendScorer } from "../scoring/backend/scorer";
import type { OpenScorer } from "./scorer";

/** Backend: the episode's answer against the task's hidden tests, in the Python sandbox. */
export async function openBackendScorer(): Promise<OpenScorer> {
  const scorer = await BackendScorer.start();
  return {
    services: {},
    async score(task, outcome) {
      const testCases = Object.fromEntries((task.testCases ?? []).map((t) => [t.name, t.expression]));
      const result = await scorer.score({ groundTruth: task.groundTruth, testCases, answer: outcome.answer ?? "" });
      return { reward: result.reward, details: { tests: result.tests } };
    },
    close: () => scorer.close(),
  };
}

export async function openScorer(config: Pick<RunConfig, "benchmark" | "embedder" | "clipPath"> & Partial<Pick<RunConfig, "render" | "placeholderPhoto">>): Promise<OpenScorer> {
  if (config.benchmark === "backend") return openBackendScorer();
  // Loaded only for frontend runs: it brings the browser and the embedders.
  const { openFrontendScorer } = await import("./frontend-scorer");
  return openFrontendScorer({ embedder: config.embedder, clipPath: config.clipPath, render: config.render, placeholderPhoto: config.placeholderPhoto });
}
