import type { EmbedderName } from "../../../colbench/run-config";
import { ClipEmbedder } from "./clip";
import { DefaultEmbedder } from "./default";
import type { ImageEmbedder } from "./types";

export type { ImageEmbedder } from "./types";

export interface EmbedderOptions {
  /** A Hugging Face openai/clip-vit-base-patch32 folder; default $COLBENCH_CLIP. */
  clipPath?: string;
}

export function createEmbedder(name: EmbedderName, options: EmbedderOptions = {}): ImageEmbedder {
  if (name === "default") return new DefaultEmbedder();
  const folder = options.clipPath ?? process.env.COLBENCH_CLIP;
  if (!folder) {
    throw new Error("the clip-vit-b32 embedder needs a checkpoint folder (openai/clip-vit-base-patch32 with model.safetensors and config.json): pass --clip PATH or set COLBENCH_CLIP");
  }
  return ClipEmbedder.load(folder);
}
