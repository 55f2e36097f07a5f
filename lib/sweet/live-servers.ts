import { parseServerSpec, type ServerSpec } from "../colbench/server-spec";
import { OpenAICompatibleClient } from "../models/openai-client";
import { processSlot } from "../process-slot";
import type { Store } from "../store";
import { ScoreError, type TurnScores } from "../store/episode-scores";
import { promptText } from "./chat-template";
import { advantage } from "./critic";
import { loadLineage, type ModelLineage } from "./lineage";
import { scoringDefinition } from "./scoring-definition";
import { criticServerScore, policyOwnStats } from "./server-turn-score";

// Live advantages computed by model servers, for a studio that serves no weights: the critic and
// policy servers given to `colbench serve --critic URL#MODEL --policy URL#MODEL`, else the ones the
// episode's run was ranked with (its latest rank record's critic; its policy, or else the latest
// candidates record's, the server that scored the turns' own outputs for rank). Each turn is scored
// by the steps' own functions (lib/sweet/server-turn-score.ts) in the run's recorded definition, so
// its value is what `candidates` then `rank` store for it; an answer the client refuses (one that
// does not cover the prompt, a log-prob that is not one) stops the scoring with nothing kept.

const ENV = { critic: "COLBENCH_LIVE_CRITIC", policy: "COLBENCH_LIVE_POLICY" } as const;

/** What `colbench serve --critic/--policy` leaves where route code reads it (as served weights are). */
export function giveLiveServers(servers: { critic?: string; policy?: string }): void {
  if (Boolean(servers.critic) !== Boolean(servers.policy))
    throw new Error("--critic and --policy go together: live advantages need both servers");
  if (!servers.critic || !servers.policy) return;
  parseServerSpec(servers.critic, "--critic");
  parseServerSpec(servers.policy, "--policy");
  process.env[ENV.critic] = servers.critic;
  process.env[ENV.policy] = servers.policy;
}

export interface LiveServers {
  critic: ServerSpec;
  policy: ServerSpec;
  /** Who named them, in words: "colbench serve", or the run's lineage records. */
  from: string;
}

/** Refused: no servers are known for the episode, with why. */
export class NoLiveServers extends Error {}

const specOf = (m: ModelLineage | undefined): ServerSpec | null =>
  m?.url ? { baseUrl: m.url, model: m.model, ...(m.replicas?.length ? { replicas: m.replicas } : {}) } : null;

/** The servers that score an episode's live advantages; NoLiveServers says why there are none. */
export async function liveServers(store: Store, episodeId: number): Promise<LiveServers> {
  const critic = process.env[ENV.critic];
  const policy = process.env[ENV.policy];
  if (critic && policy)
    return {
      critic: parseServerSpec(critic, ENV.critic),
      policy: parseServerSpec(policy, ENV.policy),
      from: "colbench serve",
    };
  const inputs = await store.sweet.episodeToScore(episodeId);
  if (!inputs) throw new ScoreError(`no episode ${episodeId}`);
  const none =
    "this studio serves no weights and was given no servers (colbench serve --critic URL#MODEL --policy URL#MODEL)";
  if (!inputs.run) throw new NoLiveServers(`${none}, and the episode belongs to no run whose lineage names them`);
  const lineage = await loadLineage(store, inputs.run.id);
  const rank = lineage.rank[0];
  if (!rank) throw new NoLiveServers(`${none}, and run ${inputs.run.name} has not been ranked`);
  const criticSpec = specOf(rank.critic);
  if (!criticSpec)
    throw new NoLiveServers(
      `${none}, and run ${inputs.run.name}'s latest ranking (record ${rank.id}) ran its critic on a machine, not a server`,
    );
  const sampling = lineage.candidates[0];
  const policySpec = specOf(rank.policy) ?? (rank.policy ? null : specOf(sampling?.policy));
  if (!policySpec)
    throw new NoLiveServers(
      `${none}, and run ${inputs.run.name}'s lineage names no policy server (its latest ranking, record ${rank.id}, and sampling${sampling ? `, record ${sampling.id}` : ""})`,
    );
  return {
    critic: criticSpec,
    policy: policySpec,
    from: `run ${inputs.run.name}'s rank record ${rank.id}${specOf(rank.policy) ? "" : ` and candidates record ${sampling!.id}`}`,
  };
}

/** The servers' models, or null where none are known (what a page shows before anything is scored). */
export async function liveServerModels(
  store: Store,
  episodeId: number,
): Promise<{ critic: string; policy: string } | null> {
  try {
    const servers = await liveServers(store, episodeId);
    return { critic: servers.critic.model, policy: servers.policy.model };
  } catch (error) {
    if (error instanceof NoLiveServers || error instanceof ScoreError) return null;
    throw error;
  }
}

/**
 * A server whose answer could not be scored (the client's refusal, or a critic span that is empty):
 * nothing is kept. `message` may quote the prompt, so a seat without the hidden information is
 * told only `plain`.
 */
export class LiveServerRefused extends Error {
  constructor(
    readonly role: "critic" | "policy",
    readonly model: string,
    message: string,
    readonly plain: string,
  ) {
    super(message);
  }
}

const refused =
  (role: "critic" | "policy", spec: ServerSpec) =>
  (error: unknown): never => {
    const why = (error as Error).message;
    const kind = /incomplete answer/.test(why)
      ? "an answer that does not cover what was asked (its log-probs are partial or not log-probs)"
      : "no answer that could be scored";
    throw new LiveServerRefused(
      role,
      spec.model,
      `the ${role} server ${spec.model} was refused, nothing was kept: ${why}`,
      `the ${role} server ${spec.model} gave ${kind}; nothing was kept`,
    );
  };

const finite = (x: number) => (Number.isFinite(x) ? x : null);
const queue = processSlot<{ tail: Promise<unknown> }>("colbench.liveServerQueue");

/** One scoring after another: two requests for the same turn keep one record. */
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const slot = queue.getOrCreate(() => ({ tail: Promise.resolve() }));
  const run = slot.tail.then(work, work);
  slot.tail = run.catch(() => undefined);
  return run;
}

/**
 * Scores the named agent turns of an episode through the model servers and keeps them as a scoring
 * record (device "servers: …", the servers' models); turns kept already are left as they are.
 */
export async function scoreTurnsWithServers(
  store: Store,
  episodeId: number,
  turns: number[],
): Promise<{ record: number; device: string; turns: TurnScores[] }> {
  const servers = await liveServers(store, episodeId);
  return inTurn(async () => {
    const kept = await store.sweet.liveAdvantages(episodeId);
    const todo = turns.filter((t) => !kept.some((k) => k.turn === t));
    const device = `servers: named by ${servers.from}`;
    if (!todo.length) return { record: Math.max(...kept.map((k) => k.record)), device, turns: [] };
    const inputs = await store.sweet.episodeToScore(episodeId);
    if (!inputs) throw new ScoreError(`no episode ${episodeId}`);
    const chosen = inputs.turns.filter((t) => todo.includes(t.index));
    const missing = todo.filter((i) => !chosen.some((t) => t.index === i));
    if (missing.length)
      throw new ScoreError(`episode ${episodeId} has no stored agent turn ${missing.join(", ")} to score`);
    // No family to fall back on from a server: the run's record, else Llama 3, as `rank --critic` would use.
    const definition = scoringDefinition({ template: inputs.template, settings: inputs.settings }, null);
    const { template, settings } = definition;
    // A person waits on the answer: a server that is down fails the turn within a minute, not the steps' ten.
    const critic = new OpenAICompatibleClient(servers.critic, { giveUpMs: 60_000 });
    const policy = new OpenAICompatibleClient(servers.policy, { giveUpMs: 60_000 });
    const scored: TurnScores[] = [];
    for (const turn of chosen) {
      if (turn.prompt === null || turn.prompt === undefined)
        throw new ScoreError(`agent turn ${turn.index} has no stored prompt, the state its critic would score`);
      const input = promptText(template, turn.prompt);
      const [own, score] = await Promise.all([
        policyOwnStats(policy, template, input, turn.output).catch(refused("policy", servers.policy)),
        criticServerScore(
          critic,
          template,
          { groundTruth: settings.groundTruth ? inputs.groundTruth : null, input, text: turn.output },
          { sum: settings.sum, what: `turn ${turn.index} of episode ${episodeId}` },
        ).catch(refused("critic", servers.critic)),
      ]);
      scored.push({
        turn: turn.index,
        criticScore: finite(score),
        policyMean: finite(own.mean),
        policySum: finite(own.sum),
        advantage: finite(advantage(score, settings.sum ? own.sum : own.mean)),
      });
    }
    const saved = await store.sweet.saveBrowserScores(
      episodeId,
      {
        device,
        models: { critic: servers.critic.model, policy: servers.policy.model },
        template: template.recorded,
        templateFrom: definition.templateFrom,
        settings,
        settingsFrom: definition.settingsFrom,
      },
      scored,
    );
    return { record: saved.id, device, turns: scored };
  });
}
