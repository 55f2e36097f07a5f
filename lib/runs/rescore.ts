import type { BrowserName, ProfileName, RenderProfile } from "../colbench/render-profile";
import type { RunConfig } from "../benchmarks/run-config";
import { frontendOptionsSchema } from "../benchmarks/frontend/run-options";
import type { Store } from "../store";
import { createEmbedder } from "../scoring/frontend/embedders";
import { RenderPool } from "../scoring/frontend/render";
import { FrontendScorer } from "../scoring/frontend/scorer";

// `colbench rescore RUN`: a finished frontend run's final pages and targets rendered again under
// another profile (or engine, or placeholder photo) and scored again. The old scores stay until
// every new one exists; then all are replaced at once, with the run's recorded profile.

export interface RescoreOptions {
  profile?: ProfileName;
  browser?: BrowserName;
  /** The published placeholder photo; default $COLBENCH_PLACEHOLDER_PHOTO, else generated stand-ins. */
  placeholderPhoto?: string;
  /** Renders in flight at once; default the pool's. */
  concurrency?: number;
  onProgress?(done: number, total: number): void;
}

export interface RescoreResult {
  episodes: number;
  from: RenderProfile;
  to: RenderProfile;
  meanBefore: number | null;
  meanAfter: number | null;
}

export async function rescoreRun(store: Store, runId: number, options: RescoreOptions = {}): Promise<RescoreResult> {
  const { config, episodes } = await store.runs.toRescore(runId);
  // The store hands over only runs whose answers are pages; these are their render and embedder.
  const page = frontendOptionsSchema.parse(config);
  const before = await store.runs.doneRewards(runId);
  const pool = await RenderPool.start({
    profile: options.profile ?? page.render.name,
    browser: options.browser ?? page.render.browser,
    ...(options.placeholderPhoto ? { placeholderPhoto: options.placeholderPhoto } : {}),
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
  });
  const scorer = await FrontendScorer.start({
    embedder: await createEmbedder(page.embedder, { clipPath: page.clipPath }),
    pool,
  });
  try {
    const scores = new Array<{ id: number; reward: number; details: Record<string, unknown> }>(episodes.length);
    let next = 0;
    let done = 0;
    const lanes = Math.max(1, options.concurrency ?? 3);
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        for (let i = next++; i < episodes.length; i = next++) {
          const e = episodes[i]!;
          const answer =
            e.answer === null
              ? { kind: "none" as const, reason: "the agent proposed no page" }
              : { kind: "html" as const, html: e.answer };
          const s = await scorer.score(e.groundTruth, answer);
          scores[i] = { id: e.id, reward: s.reward, details: { ...s } };
          options.onProgress?.(++done, episodes.length);
        }
      }),
    );
    const to = pool.profile;
    const updated = {
      ...config,
      render: to,
      placeholderPhoto: pool.placeholderPhotoPath,
      rescored: [...(page.rescored ?? []), { from: page.render, at: new Date().toISOString() }],
    } as RunConfig;
    await store.runs.replaceScores(runId, scores, updated);
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
    return {
      episodes: scores.length,
      from: page.render,
      to,
      meanBefore: mean(before.map((b) => b.reward ?? 0)),
      meanAfter: mean(scores.map((s) => s.reward)),
    };
  } finally {
    await scorer.close();
    await pool.close();
  }
}
