import { decodePng } from "../png";
import { clipPreprocess } from "./clip-preprocess";
import { clipEmbedderId } from "../../../gpu/clip/model";
import { embedImage, loadClipVision, type ClipVisionModel } from "./clip-vision";
import type { ImageEmbedder } from "./types";

export { clipEmbedderId };

/**
 * CLIP ViT-B/32 image embeddings computed in TypeScript: the `reference` device, kept for parity
 * tests (clip-onnx.ts is the one scores use on a CPU), from a Hugging Face checkpoint folder
 * (openai/clip-vit-base-patch32: model.safetensors + config.json). The image is preprocessed at
 * the model's image_size (224 for ViT-B/32).
 */
export class ClipEmbedder implements ImageEmbedder {
  readonly id: string;
  readonly device = "reference";

  private constructor(
    readonly model: ClipVisionModel,
    id: string,
  ) {
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
