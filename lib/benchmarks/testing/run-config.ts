// A run's stored configuration with only the fields every benchmark shares, for tests that need one.

export function commonRunConfig(benchmark: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    benchmark,
    selector: "all",
    taskIds: [1],
    bestOf: 1,
    agent: { baseUrl: "http://x/v1", model: "a" },
    simulator: { baseUrl: "http://x/v1", model: "s" },
    prompts: { agent: "", simulator: "" },
    promptSources: { agent: "default", simulator: "default" },
    sampling: { temperature: 1, maxTokens: 10, logprobs: false },
    maxAgentTurns: 10,
    concurrency: 1,
    ...extra,
  };
}
