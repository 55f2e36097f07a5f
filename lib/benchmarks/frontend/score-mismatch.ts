import { profileLabel, sameProfile } from "../../colbench/render-profile";
import type { ScoreMismatch } from "../module";
import { runEmbedder, runRenderProfile } from "./run-options";

// Similarities compare only when both pages were rendered alike and embedded by one model: a run
// is scored under a render profile and an image embedder, recorded in its config.

type ScoredRun = { name: string; config: unknown };

/**
 * Only under one render profile (the same window, extent, engine and placeholders). Null when
 * they may, else the sentence saying why not; imported rewards' profile is unknown, so never the same.
 */
export function profileMismatch(a: ScoredRun, b: ScoredRun): string | null {
  const [ra, rb] = [runRenderProfile(a.config), runRenderProfile(b.config)];
  if (ra && rb && sameProfile(ra, rb)) return null;
  const describe = (r: typeof ra) => (r ? profileLabel(r) : "an unknown render profile (imported rewards)");
  return `${a.name} was scored under ${describe(ra)} and ${b.name} under ${describe(rb)}: their similarities are not comparable. Rescore one with \`colbench rescore RUN --profile P --browser B\`.`;
}

/**
 * Only from one image embedder (CLIP with the same weights, or the weight-free default); two runs
 * both of imported rewards are let be. Null when they may, else the sentence saying why not.
 */
export function embedderMismatch(a: ScoredRun, b: ScoredRun): string | null {
  const [ea, eb] = [runEmbedder(a.config), runEmbedder(b.config)];
  if (ea && eb && ea.id === eb.id && ea.weights === eb.weights) return null;
  if (!ea && !eb) return null;
  const describe = (e: typeof ea) => e?.label ?? "an unknown embedder (imported rewards)";
  return `${a.name}'s similarities come from ${describe(ea)} and ${b.name}'s from ${describe(eb)}: their similarities are not comparable. Score both with one embedder (\`colbench run --embedder\`, or the New run form's Embedder).`;
}

/** Render profile first, then embedder. */
export function scoreMismatches(a: ScoredRun, b: ScoredRun): ScoreMismatch[] {
  const profile = profileMismatch(a, b);
  const embedder = embedderMismatch(a, b);
  return [
    ...(profile ? [{ by: "render profile", reason: profile }] : []),
    ...(embedder ? [{ by: "embedder", reason: embedder }] : []),
  ];
}
