import type { EmbedderName } from "../colbench/run-config";
import { createEmbedder } from "../scoring/frontend/embedders";
import { FrontendScorer } from "../scoring/frontend/scorer";
import { RenderPool } from "../scoring/frontend/render";
import type { OpenScorer } from "./scorer";

/**
 * Frontend: one Chromium render pool serves both the episodes (the simulator looks at every
 * proposal) and the score (cosine similarity of the final page's and the target's embeddings).
 */
export async function openFrontendScorer(options: { embedder?: EmbedderName; clipPath?: string } = {}): Promise<OpenScorer> {
  const embedder = await createEmbedder(options.embedder ?? "default", { clipPath: options.clipPath });
  const pool = await RenderPool.start();
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
      const answer = outcome.answer === null ? { kind: "none" as const, reason: "the agent proposed no page" } : { kind: "html" as const, html: outcome.answer };
      const result = await scorer.score(task.groundTruth, answer);
      return { reward: result.reward, details: result };
    },
    async close() {
      await scorer.close();
      await pool.close();
    },
  };
}
