import type { EmbedderName } from "../../colbench/run-config";
import { profileLabel, sameProfile, type RenderProfile } from "../../colbench/render-profile";
import { createEmbedder } from "../../scoring/frontend/embedders";
import { FrontendScorer } from "../../scoring/frontend/scorer";
import { RenderPool } from "../../scoring/frontend/render";
import type { OpenScorer } from "../scorer";

export interface FrontendScorerSpec {
  embedder?: EmbedderName;
  clipPath?: string;
  /** The run's render profile; its placeholders must be what the photo given (or none) makes. */
  render?: RenderProfile;
  placeholderPhoto?: string;
}

/**
 * Frontend: one render pool serves both the episodes (the simulator looks at every proposal) and
 * the score (cosine similarity of the final page's and the target's embeddings), under the run's
 * render profile.
 */
export async function openFrontendScorer(options: FrontendScorerSpec = {}): Promise<OpenScorer> {
  const embedder = await createEmbedder(options.embedder ?? "default", { clipPath: options.clipPath });
  const pool = await RenderPool.start({
    ...(options.render ? { profile: options.render.name, browser: options.render.browser } : {}),
    // A run recorded with generated placeholders keeps them, whatever the environment says.
    placeholderPhoto: options.render?.placeholders === "generated" ? null : (options.placeholderPhoto ?? null),
  });
  if (options.render && !sameProfile(pool.profile, options.render)) {
    await pool.close();
    throw new Error(
      `the run was rendered under ${profileLabel(options.render)}, but this machine renders ${profileLabel(pool.profile)}: supply the same placeholder photo (--placeholder-photo or COLBENCH_PLACEHOLDER_PHOTO)`,
    );
  }
  const scorer = await FrontendScorer.start({ embedder, pool });
  return {
    services: {
      renderer: {
        async render(html: string) {
          const result = await pool.render(html);
          return { id: result.id, png: result.png };
        },
      },
    },
    async score(task, outcome) {
      const answer =
        outcome.answer === null
          ? { kind: "none" as const, reason: "the agent proposed no page" }
          : { kind: "html" as const, html: outcome.answer };
      const result = await scorer.score(task.groundTruth, answer);
      return { reward: result.reward, details: result };
    },
    async close() {
      await scorer.close();
      await pool.close();
    },
  };
}
