// What a page showing the live CLIP similarity (the collaborator seat) and its Web Worker
// (workers/browser/clip-similarity.worker.ts) say to each other. The worker fetches both renders by
// their content ids, so only a page that may see the target's render can ask for it.

export interface SimilarityRequest {
  type: "similarity";
  /** Where the studio serves CLIP's folder: `${weightsBase}/config.json`, `${weightsBase}/model.safetensors`. */
  weightsBase: string;
  /** Where renders are: `${rendersBase}/${id}` (PNG). */
  rendersBase: string;
  agentRenderId: string;
  targetRenderId: string;
}

export type SimilarityMessage =
  | { type: "adapter"; device: string }
  | { type: "loading"; loaded: number; total: number }
  | { type: "embedding" }
  | { type: "similarity"; agentRenderId: string; targetRenderId: string; value: number; embedder: string }
  | { type: "error"; message: string };
