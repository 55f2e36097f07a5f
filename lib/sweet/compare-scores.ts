import type { TurnScores } from "../store/episode-scores";

// A browser's scores of an episode's turns against what `rank` stored for them. Only values the same
// model produced are compared: a critic score when the stored one is the served critic's, the policy's
// log-probs when the stored ones are the served policy's (rank recomputed them with --policy-weights;
// otherwise they are the sampling server's), an advantage when both are. Imported by the replay's
// client code: no Node here.

export interface StoredCandidate {
  index: number;
  criticModel: string | null;
  criticScore: number | null;
  policyModel: string;
  policyMean: number;
  policySum: number;
  advantage: number | null;
}

export interface StoredTurn {
  /** The agent turn's index in the episode. */
  turn: number;
  advantage: number | null;
  candidates: StoredCandidate[];
}

export type ComparedValue = "criticScore" | "policyMean" | "policySum" | "advantage";

export interface ScoreComparison {
  /** How many stored values were compared, by kind (policy: mean and sum). */
  compared: { critic: number; policy: number; advantage: number };
  /** The largest |browser − stored| by kind, null where none was compared. */
  max: { critic: number | null; policy: number | null; advantage: number | null };
  /** The largest of those. */
  maxDiff: number | null;
  /** The largest |browser − stored| / max(1, |stored|): what a sum of many f32 log-probs is fairly judged by. */
  maxRelative: number | null;
  /** Where it is. */
  worst: { turn: number; candidate: number; value: ComparedValue; browser: number; stored: number } | null;
  /** Models other than the served ones whose stored values were left out. */
  otherModels: { critics: string[]; policies: string[] };
  /** Agent turns the browser scored for which `rank` has stored no critic score. */
  unranked: number;
}

export function compareScores(
  browser: TurnScores[],
  stored: StoredTurn[],
  models: { critic: string; policy: string },
): ScoreComparison {
  const out: ScoreComparison = {
    compared: { critic: 0, policy: 0, advantage: 0 },
    max: { critic: null, policy: null, advantage: null },
    maxDiff: null,
    maxRelative: null,
    worst: null,
    otherModels: { critics: [], policies: [] },
    unranked: 0,
  };
  const critics = new Set<string>();
  const policies = new Set<string>();
  const byTurn = new Map(stored.map((t) => [t.turn, t]));
  const compare = (
    kind: keyof ScoreComparison["compared"],
    turn: number,
    candidate: number,
    value: ComparedValue,
    ours: number | null,
    theirs: number | null,
  ) => {
    if (ours === null || theirs === null || !Number.isFinite(ours) || !Number.isFinite(theirs)) return;
    const diff = Math.abs(ours - theirs);
    out.compared[kind]++;
    out.max[kind] = Math.max(out.max[kind] ?? 0, diff);
    out.maxRelative = Math.max(out.maxRelative ?? 0, diff / Math.max(1, Math.abs(theirs)));
    if (out.maxDiff === null || diff > out.maxDiff) {
      out.maxDiff = diff;
      out.worst = { turn, candidate, value, browser: ours, stored: theirs };
    }
  };
  for (const t of browser) {
    const have = byTurn.get(t.turn);
    const ranked = have?.candidates.filter((c) => c.criticScore !== null) ?? [];
    if (!ranked.length) {
      out.unranked++;
      continue;
    }
    for (const c of t.candidates ?? []) {
      const s = have!.candidates.find((x) => x.index === c.index);
      if (!s || s.criticScore === null) continue;
      const sameCritic = s.criticModel === models.critic;
      const samePolicy = s.policyModel === models.policy;
      if (!sameCritic && s.criticModel) critics.add(s.criticModel);
      if (!samePolicy) policies.add(s.policyModel);
      if (sameCritic) compare("critic", t.turn, c.index, "criticScore", c.criticScore, s.criticScore);
      if (samePolicy) {
        compare("policy", t.turn, c.index, "policyMean", c.policyMean, s.policyMean);
        compare("policy", t.turn, c.index, "policySum", c.policySum, s.policySum);
      }
      if (sameCritic && samePolicy) compare("advantage", t.turn, c.index, "advantage", c.advantage, s.advantage);
    }
  }
  out.otherModels = { critics: [...critics].sort(), policies: [...policies].sort() };
  return out;
}
