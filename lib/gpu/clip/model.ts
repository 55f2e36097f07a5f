// CLIP's vision tower with its projection (transformers' CLIPVisionModelWithProjection): its config
// and weights as plain arrays, read through any tensor reader (a file in Node: clip-vision.ts; bytes
// fetched by a browser: safetensors-bytes.ts). No Node imports: the browser's WebGPU path uses it.

export interface ClipVisionConfig {
  hiddenSize: number;
  intermediateSize: number;
  numLayers: number;
  numHeads: number;
  imageSize: number;
  patchSize: number;
  projectionDim: number;
  layerNormEps: number;
}

/** CLIPVisionConfig's defaults, which are ViT-B/32's. */
const DEFAULTS: ClipVisionConfig = {
  hiddenSize: 768,
  intermediateSize: 3072,
  numLayers: 12,
  numHeads: 12,
  imageSize: 224,
  patchSize: 32,
  projectionDim: 512,
  layerNormEps: 1e-5,
};

/** Reads a CLIPModel config (vision part under vision_config) or a vision-only config. */
export function parseClipConfig(json: Record<string, unknown>): ClipVisionConfig {
  const vision = (json.vision_config ?? json.vision_config_dict ?? json) as Record<string, unknown>;
  const num = (v: unknown, fallback: number) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
  const act = vision.hidden_act ?? "quick_gelu";
  if (act !== "quick_gelu")
    throw new Error(`CLIP vision config uses hidden_act ${JSON.stringify(act)}; only quick_gelu is implemented`);
  return {
    hiddenSize: num(vision.hidden_size, DEFAULTS.hiddenSize),
    intermediateSize: num(vision.intermediate_size, DEFAULTS.intermediateSize),
    numLayers: num(vision.num_hidden_layers, DEFAULTS.numLayers),
    numHeads: num(vision.num_attention_heads, DEFAULTS.numHeads),
    imageSize: num(vision.image_size, DEFAULTS.imageSize),
    patchSize: num(vision.patch_size, DEFAULTS.patchSize),
    projectionDim: num(json.projection_dim ?? vision.projection_dim, DEFAULTS.projectionDim),
    layerNormEps: num(vision.layer_norm_eps, DEFAULTS.layerNormEps),
  };
}

export interface Affine {
  weight: Float32Array;
  bias: Float32Array;
}

export interface Layer {
  ln1: Affine;
  q: Affine;
  k: Affine;
  v: Affine;
  out: Affine;
  ln2: Affine;
  fc1: Affine;
  fc2: Affine;
}

export interface ClipVisionModel {
  config: ClipVisionConfig;
  /** [hidden, 3 * patch * patch]: the convolution's kernels, flattened channel-major. */
  patchEmbedding: Float32Array;
  classEmbedding: Float32Array;
  /** [tokens, hidden] with tokens = 1 + (imageSize / patchSize)². */
  positionEmbedding: Float32Array;
  preLayerNorm: Affine;
  layers: Layer[];
  postLayerNorm: Affine;
  /** [projectionDim, hidden] */
  projection: Float32Array;
}

/**
 * The id recorded with scores: "clip-vit-b32" for a checkpoint of ViT-B/32's shape, whichever device
 * computes it (they agree), and a name spelling out the shape otherwise, so scores from another
 * model are never labelled as B/32's.
 */
export function clipEmbedderId(c: ClipVisionConfig): string {
  const b32 =
    c.hiddenSize === 768 &&
    c.numLayers === 12 &&
    c.numHeads === 12 &&
    c.patchSize === 32 &&
    c.imageSize === 224 &&
    c.projectionDim === 512;
  return b32
    ? "clip-vit-b32"
    : `clip-vision-h${c.hiddenSize}-l${c.numLayers}-p${c.patchSize}-i${c.imageSize}-e${c.projectionDim}`;
}

/** Reads a tensor of a checkpoint by its full name, checking its shape, as float32. */
export type TensorReader = (name: string, shape: number[]) => Float32Array;

/** The vision tower from a Hugging Face CLIP checkpoint's config.json and tensors. */
export function assembleClipVision(configJson: Record<string, unknown>, read: TensorReader): ClipVisionModel {
  const config = parseClipConfig(configJson);
  const { hiddenSize: H, intermediateSize: I, patchSize: P, imageSize: S, projectionDim: E } = config;
  if (S % P !== 0) throw new Error(`image_size ${S} is not a multiple of patch_size ${P}`);
  if (H % config.numHeads !== 0)
    throw new Error(`hidden_size ${H} is not a multiple of num_attention_heads ${config.numHeads}`);
  const tokens = 1 + (S / P) ** 2;
  const t = (name: string, shape: number[]) => read(`vision_model.${name}`, shape);
  const affine = (name: string, out: number, inp?: number): Affine => ({
    weight: t(`${name}.weight`, inp === undefined ? [out] : [out, inp]),
    bias: t(`${name}.bias`, [out]),
  });
  const layers: Layer[] = [];
  for (let l = 0; l < config.numLayers; l++) {
    const p = `encoder.layers.${l}`;
    layers.push({
      ln1: affine(`${p}.layer_norm1`, H),
      q: affine(`${p}.self_attn.q_proj`, H, H),
      k: affine(`${p}.self_attn.k_proj`, H, H),
      v: affine(`${p}.self_attn.v_proj`, H, H),
      out: affine(`${p}.self_attn.out_proj`, H, H),
      ln2: affine(`${p}.layer_norm2`, H),
      fc1: affine(`${p}.mlp.fc1`, I, H),
      fc2: affine(`${p}.mlp.fc2`, H, I),
    });
  }
  return {
    config,
    patchEmbedding: t("embeddings.patch_embedding.weight", [H, 3, P, P]),
    classEmbedding: t("embeddings.class_embedding", [H]),
    positionEmbedding: t("embeddings.position_embedding.weight", [tokens, H]),
    // transformers spells it "pre_layrnorm".
    preLayerNorm: affine("pre_layrnorm", H),
    layers,
    postLayerNorm: affine("post_layernorm", H),
    projection: read("visual_projection.weight", [E, H]),
  };
}
