import { ModelCodeSimulator } from "../../models/model-roles";
import { BackendScorer } from "../../scoring/backend/scorer";
import type { BenchmarkRuntime } from "../module";
import type { OpenScorer } from "../scorer";

/** The episode's answer against the task's hidden tests, in the Python sandbox. */
export async function openBackendScorer(): Promise<OpenScorer> {
  const scorer = await BackendScorer.start();
  return {
    services: {},
    async score(task, outcome) {
      const testCases = Object.fromEntries((task.testCases ?? []).map((t) => [t.name, t.expression]));
      const result = await scorer.score({ groundTruth: task.groundTruth, testCases, answer: outcome.answer ?? "" });
      // What the answer printed goes with its tests (each failed test also carries its message and its own part).
      return {
        reward: result.reward,
        details: { tests: result.tests, ...(result.output ? { output: result.output } : {}) },
      };
    },
    close: () => scorer.close(),
  };
}

export const backendRuntime: BenchmarkRuntime = {
  openScorer: () => openBackendScorer(),
  modelSimulator: (client, prompt) => new ModelCodeSimulator(client, prompt),
};
