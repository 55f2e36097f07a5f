import type { EmbedderName } from "../../../colbench/run-config";
import { resolveModel, type FileProgress } from "../../../hub";
import { ClipEmbedder } from "./clip";
import { CLIP_FILES, CLIP_HUB_ID } from "./choose";
import { DefaultEmbedder } from "./default";
import type { ImageEmbedder } from "./types";

export type { ImageEmbedder } from "./types";
export { chooseFrontendEmbedder, CLIP_HUB_ID, type EmbedderChoice } from "./choose";

export interface EmbedderOptions {
  /** openai/clip-vit-base-patch32's weights: a folder or a hub id; default $COLBENCH_CLIP, else that hub id. */
  clipPath?: string;
  /** Download progress, when the weights come from the hub for the first time. */
  onProgress?: (progress: FileProgress) => void;
}

/** The one way to an image embedder. CLIP's weights are resolved through the shared Hugging Face cache. */
export async function createEmbedder(name: EmbedderName, options: EmbedderOptions = {}): Promise<ImageEmbedder> {
  if (name === "default") return new DefaultEmbedder();
  const ref = options.clipPath ?? process.env.COLBENCH_CLIP ?? CLIP_HUB_ID;
  const { folder } = await resolveModel(ref, { files: CLIP_FILES, onProgress: options.onProgress });
  return ClipEmbedder.load(folder);
}
