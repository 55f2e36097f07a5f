import type { BenchmarkRuntime } from "../benchmarks/module";
import type { RunConfig } from "../benchmarks/run-config";
import { ModelAgent } from "../models/model-roles";
import { OpenAICompatibleClient, type ClientOptions } from "../models/openai-client";
import { isHuman, isLocal, type Player } from "../colbench/run-config";
import { LocalAgent } from "../gpu/generate/local-agent";
import type { ServerSpec } from "../colbench/server-spec";
import type { RunServices } from "./runner";
import type { AnswerScorer } from "../benchmarks/scorer";

function serverOf(player: Player, side: string): ServerSpec {
  if (isHuman(player))
    throw new Error(`the ${side} is played by a person: play this run in the studio (\`colbench serve\`, then Play)`);
  if (isLocal(player))
    throw new Error(
      `the ${side} is a model run in this process (local:${player.local.model}); only the agent can be one`,
    );
  return player;
}

const giveUp = (config: RunConfig): ClientOptions =>
  config.giveUpSeconds ? { giveUpMs: config.giveUpSeconds * 1000 } : {};

/** The usual services: both sides played by OpenAI-compatible model servers, the simulator as the benchmark's runtime prompts it. */
export function modelServices(
  runtime: Pick<BenchmarkRuntime, "modelSimulator">,
  scorer: AnswerScorer,
  extras: Pick<RunServices, "renderer"> = {},
  clientOptions: ClientOptions = {},
): RunServices {
  return {
    ...extras,
    makeAgent: (config: RunConfig) =>
      isLocal(config.agent)
        ? // Loaded only here: Dawn and the weights stay out of runs that do not need them.
          new LocalAgent(config.agent.local, config.prompts.agent, config.sampling, (o) =>
            import("../gpu/node/local-generator").then((m) => m.openLocalGenerator(o.model, { device: o.device })),
          )
        : new ModelAgent(
            new OpenAICompatibleClient(serverOf(config.agent, "agent"), {
              concurrency: config.concurrency,
              ...giveUp(config),
              ...clientOptions,
            }),
            config.prompts.agent,
            config.sampling,
          ),
    makeSimulator: (config: RunConfig) => {
      const client = new OpenAICompatibleClient(serverOf(config.simulator, "simulator"), {
        concurrency: config.concurrency,
        ...giveUp(config),
        ...clientOptions,
      });
      return runtime.modelSimulator(client, config.prompts.simulator);
    },
    score: (task, outcome) => scorer.score(task, outcome),
  };
}
