import { decodePng } from "../png";
import { clipPreprocess } from "./clip-preprocess";
import { embedImage, loadClipVision, type ClipVisionConfig, type ClipVisionModel } from "./clip-vision";
import type { ImageEmbedder } from "./types";

/**
 * The id recorded with scores: "clip-vit-b32" for a checkpoint of ViT-B/32's shape, whichever device
 * computes it (they agree), and a name spelling out the shape otherwise, so scores from another
 * model are never labelled as B/32's.
 */
export function clipEmbedderId(c: ClipVisionConfig): string {
  const b32 = c.hiddenSize === 768 && c.numLayers === 12 && c.numHeads === 12 && c.patchSize === 32 && c.imageSize === 224 && c.projectionDim === 512;
  return b32 ? "clip-vit-b32" : `clip-vision-h${c.hiddenSize}-l${c.numLayers}-p${c.patchSize}-i${c.imageSize}-e${c.projectionDim}`;
}

/**
 * CLIP ViT-B/32 image embeddings computed in TypeScript: the `reference` device, kept for parity
 * tests (clip-onnx.ts is the one scores use on a CPU), from a Hugging Face checkpoint folder
 * (openai/clip-vit-base-patch32: model.safetensors + config.json). The image is preprocessed at
 * the model's image_size (224 for ViT-B/32).
 */
export class ClipEmbedder implements ImageEmbedder {
  readonly id: string;
  readonly device = "reference";

  private constructor(readonly model: ClipVisionModel, id: string) {
    this.id = id;
  }

  /** `id` defaults to clipEmbedderId of the checkpoint's shape. */
  static load(folder: string, id?: string): ClipEmbedder {
    const model = loadClipVision(folder);
    return new ClipEmbedder(model, id ?? clipEmbedderId(model.config));
  }

  async embed(png: Uint8Array): Promise<Float32Array> {
    return embedImage(this.model, clipPreprocess(decodePng(png), this.model.config.imageSize));
  }
}
