/** Turns a screenshot into a vector whose cosine with another screenshot's says how alike they look. */
export interface ImageEmbedder {
  /** Recorded with every score: scores from different embedders are not comparable. */
  readonly id: string;
  /** Where it runs (cpu, webgpu, reference for CLIP): recorded beside the id; devices agree, so it is not part of the id. */
  readonly device?: string;
  /** An L2-normalised embedding of a PNG image. */
  embed(png: Uint8Array): Promise<Float32Array>;
  /** Frees what the embedder holds (an inference session, say). */
  close?(): Promise<void>;
}
