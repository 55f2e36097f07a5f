import type { Store } from "../../store";
import type { StudioScores, StudioTurnScorer } from "../live-service";
import { ScoreError } from "../../store/episode-scores";
import { scoringDefinition } from "../../sweet/scoring-definition";
import { processSlot } from "../../process-slot";
import type { LocalScorer } from "../model/scorer";
import { scoreEpisode } from "../score-episode";
import { scoreTurnsWithServers } from "../../sweet/live-servers";
import { servedFolder, servedModels } from "./served-weights";

// Live advantages computed in the studio's own process, with the critic and policy it serves to
// browsers: for a tab that may not be sent the critic's prompt (a person in the agent's seat, whose
// coach mode shows the critic's judgement of a turn once it is sent). The prompt is built and scored
// here, the same way the replay's Web Worker does (lib/gpu/score-episode.ts), and only the numbers
// leave. Models load once per process, on the first turn asked for (Dawn, or the CPU runner with
// COLBENCH_LIVE_DEVICE=cpu), and turns are scored one request at a time. A studio that serves no
// weights scores through model servers instead (lib/sweet/live-servers.ts).

interface Models {
  critic: LocalScorer;
  policy: LocalScorer;
}

const models = processSlot<Promise<Models>>("colbench.liveAdvantageModels");
const queue = processSlot<{ tail: Promise<unknown> }>("colbench.liveAdvantageQueue");

async function load(): Promise<Models> {
  const critic = servedFolder("critic");
  const policy = servedFolder("policy");
  if (!critic || !policy) throw new Error("this studio serves no policy and critic");
  const { openLocalScorer } = await import("./local-scorer");
  const device = process.env.COLBENCH_LIVE_DEVICE === "cpu" ? "cpu" : "webgpu";
  const gpu = device === "webgpu" ? await (await import("./open")).openNodeGpu() : undefined;
  return {
    critic: await openLocalScorer(critic, { device, gpu, option: "--critic-weights" }),
    policy: await openLocalScorer(policy, { device, gpu, option: "--policy-weights" }),
  };
}

function loaded(): Promise<Models> {
  const pending = models.getOrCreate(load);
  // A failed load is tried again on the next request rather than kept.
  pending.catch(() => models.set(undefined));
  return pending;
}

/** Runs one scoring after the ones before it: the models are not shared by two scorings at once. */
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const slot = queue.getOrCreate(() => ({ tail: Promise.resolve() }));
  const run = slot.tail.then(work, work);
  slot.tail = run.catch(() => undefined);
  return run;
}

/**
 * Scores the named agent turns of an episode in the studio's process and keeps them as a scoring
 * record; null when the studio serves no models.
 */
export async function scoreTurnsInStudio(
  store: Store,
  episodeId: number,
  turns: number[],
): Promise<StudioScores | null> {
  const served = servedModels();
  if (!served.critic || !served.policy) return null;
  return inTurn(async () => {
    const inputs = await store.sweet.episodeToScore(episodeId);
    if (!inputs) throw new ScoreError(`no episode ${episodeId}`);
    const unprompted = inputs.turns.filter(
      (t) => turns.includes(t.index) && (t.prompt === null || t.prompt === undefined),
    );
    if (unprompted.length)
      throw new ScoreError(
        `agent turn ${unprompted.map((t) => t.index).join(", ")} has no stored prompt, the state its critic would score (a person's turn stored before people's turns kept one)`,
      );
    const { critic, policy } = await loaded();
    const definition = scoringDefinition(
      { template: inputs.template, settings: inputs.settings },
      critic.tokenizer.templateFamily(),
    );
    const scored = await scoreEpisode(inputs, critic, policy, { definition, only: turns });
    const device = `studio: ${critic.engine.device}`;
    const saved = await store.sweet.saveBrowserScores(
      episodeId,
      {
        device,
        models: { critic: served.critic!, policy: served.policy! },
        template: definition.template.recorded,
        templateFrom: definition.templateFrom,
        settings: definition.settings,
        settingsFrom: definition.settingsFrom,
      },
      scored,
    );
    return { record: saved.id, device, turns: scored };
  });
}

/**
 * What `colbench serve` puts where the routes find it (lib/gpu/live-service.ts): the served weights
 * first; with none, the model servers (lib/sweet/live-servers.ts).
 */
export const studioTurnScorer: StudioTurnScorer = {
  score: async (store, episodeId, turns) =>
    (await scoreTurnsInStudio(store, episodeId, turns)) ?? scoreTurnsWithServers(store, episodeId, turns),
};
