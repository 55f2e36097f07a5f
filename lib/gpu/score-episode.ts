import type { EpisodeToScore, ScoredValues, TurnScores } from "../store/episode-scores";
import type { ScoringDefinition } from "../sweet/scoring-definition";
import { scoreTurn, type ContinuationScorer, type PromptScorer } from "../sweet/score-turn";

// An episode's agent turns scored by a critic and a policy running here (a browser's Web Worker, or
// Node): each turn's candidates where it has them, else its own output, with the rules of
// lib/sweet/score-turn.ts that `rank --critic-weights` uses, in the definition the run recorded
// (lib/sweet/scoring-definition.ts): its template, sum or mean, with or without the final answer.
// Numbers that are not finite become null. Live scoring (an episode as it plays) scores only the
// turns it names (`only`): a turn's critic prompt and policy continuation depend on that turn's own
// stored prompt and output alone, so its value then is the value `rank` stores for it later.

const finite = (x: number) => (Number.isFinite(x) ? x : null);

export async function scoreEpisode(
  inputs: EpisodeToScore,
  critic: PromptScorer & Required<Pick<PromptScorer, "promptLogprobsBatch">>,
  policy: ContinuationScorer,
  options: {
    definition: ScoringDefinition;
    onTurn?: (done: number, total: number) => void;
    /** Score only these agent turns (by index); the others are left out of the result. */
    only?: readonly number[];
  },
): Promise<TurnScores[]> {
  const { template, settings } = options.definition;
  if (settings.groundTruth && inputs.groundTruth === null)
    throw new Error("the critic is to be told the final answer, but the episode's inputs leave it out");
  const groundTruth = settings.groundTruth ? inputs.groundTruth : null;
  const out: TurnScores[] = [];
  const only = options.only ? new Set(options.only) : null;
  const turns = only ? inputs.turns.filter((t) => only.has(t.index)) : inputs.turns;
  if (only && turns.length !== only.size) {
    const missing = [...only].filter((i) => !turns.some((t) => t.index === i));
    throw new Error(`episode ${inputs.episodeId} has no stored agent turn ${missing.join(", ")} to score`);
  }
  options.onTurn?.(0, turns.length);
  for (const turn of turns) {
    const candidates = turn.candidates.length ? turn.candidates : [{ index: 0, text: turn.output }];
    const scored = await scoreTurn(template, { prompt: turn.prompt, groundTruth, candidates }, critic, policy, {
      sum: settings.sum,
    });
    const values = scored.map((s): ScoredValues & { index: number } => ({
      index: s.index,
      criticScore: finite(s.criticScore),
      policyMean: finite(s.policyMean),
      policySum: finite(s.policySum),
      advantage: finite(s.advantage),
    }));
    const own = values.find((v) => v.index === 0) ?? values[0]!;
    out.push({
      turn: turn.index,
      criticScore: own.criticScore,
      policyMean: own.policyMean,
      policySum: own.policySum,
      advantage: own.advantage,
      ...(turn.candidates.length ? { candidates: values } : {}),
    });
    options.onTurn?.(out.length, turns.length);
  }
  return out;
}
