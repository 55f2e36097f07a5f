import type { Rope, RopeScaling } from "../rope-table";

// A Llama-family causal LM's shape from its Hugging Face config.json: Llama 3.x and SmolLM2
// (model_type "llama") and Qwen2/2.5 ("qwen2"). Rope settings are read in both spellings: the
// `rope_theta` + `rope_scaling` of published checkpoints and transformers 5's `rope_parameters`.

export type Family = "llama" | "qwen2";

export interface ModelConfig {
  family: Family;
  vocab: number;
  hidden: number;
  inner: number;
  layers: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  eps: number;
  rope: Rope;
  maxPositions: number;
  /** The LM head is the embedding table. */
  tied: boolean;
  /** q, k and v projections have biases (Qwen2; Llama with attention_bias). */
  qkvBias: boolean;
  /** The output projection has a bias (Llama with attention_bias). */
  oBias: boolean;
}

export class ConfigError extends Error {}

type Json = Record<string, unknown>;

export function parseConfig(json: unknown, file = "config.json"): ModelConfig {
  const problem = (field: string, message: string) => new ConfigError(`${file}: ${field}: ${message}`);
  if (!json || typeof json !== "object" || Array.isArray(json)) throw problem("(top level)", "expected a JSON object");
  const c = json as Json;
  const int = (field: string, fallback?: number): number => {
    const v = c[field] ?? fallback;
    if (typeof v !== "number" || !Number.isInteger(v) || v <= 0)
      throw problem(field, `expected a positive whole number, got ${JSON.stringify(c[field])}`);
    return v;
  };
  const num = (obj: Json, field: string, where: string, fallback?: number): number => {
    const v = obj[field] ?? fallback;
    if (typeof v !== "number" || !Number.isFinite(v))
      throw problem(where, `expected a number, got ${JSON.stringify(obj[field])}`);
    return v;
  };

  const type = c.model_type;
  if (type !== "llama" && type !== "qwen2") {
    throw problem(
      "model_type",
      `"${String(type)}" is not a model this scorer runs (llama: Llama 3.x, SmolLM2; qwen2: Qwen2, Qwen2.5)`,
    );
  }
  const act = c.hidden_act ?? "silu";
  if (act !== "silu")
    throw problem("hidden_act", `only "silu" (the SiLU-gated MLP) is supported, got ${JSON.stringify(act)}`);
  if (c.mlp_bias === true) throw problem("mlp_bias", "MLP biases are not supported");
  if (type === "qwen2" && c.use_sliding_window === true)
    throw problem("use_sliding_window", "sliding-window attention is not supported (Qwen2.5 checkpoints leave it off)");

  const hidden = int("hidden_size");
  const heads = int("num_attention_heads");
  const kvHeads = int("num_key_value_heads", heads);
  if (heads % kvHeads) throw problem("num_key_value_heads", `${kvHeads} does not divide num_attention_heads ${heads}`);
  const headDim = c.head_dim === undefined || c.head_dim === null ? hidden / heads : int("head_dim");
  if (!Number.isInteger(headDim) || headDim % 2)
    throw problem("head_dim", `expected an even whole number, got ${headDim}`);
  if (headDim > 128) throw problem("head_dim", `${headDim} is more than the attention kernel's 128`);

  const ropeJson = (c.rope_parameters ?? c.rope_scaling ?? null) as Json | null;
  const theta = num(ropeJson && "rope_theta" in ropeJson ? ropeJson : c, "rope_theta", "rope_theta", 10000);
  let scaling: RopeScaling = { type: "default" };
  if (ropeJson) {
    const where = c.rope_parameters ? "rope_parameters" : "rope_scaling";
    const kind = ropeJson.rope_type ?? ropeJson.type ?? "default";
    if (kind === "llama3") {
      scaling = {
        type: "llama3",
        factor: num(ropeJson, "factor", `${where}.factor`),
        lowFreqFactor: num(ropeJson, "low_freq_factor", `${where}.low_freq_factor`),
        highFreqFactor: num(ropeJson, "high_freq_factor", `${where}.high_freq_factor`),
        originalMaxPositions: num(
          ropeJson,
          "original_max_position_embeddings",
          `${where}.original_max_position_embeddings`,
        ),
      };
    } else if (kind === "linear") {
      scaling = { type: "linear", factor: num(ropeJson, "factor", `${where}.factor`) };
    } else if (kind !== "default") {
      throw problem(
        `${where}.rope_type`,
        `${JSON.stringify(kind)} rope scaling is not supported (default, linear, llama3 are)`,
      );
    }
  }

  const bias = c.attention_bias === true;
  return {
    family: type,
    vocab: int("vocab_size"),
    hidden,
    inner: int("intermediate_size"),
    layers: int("num_hidden_layers"),
    heads,
    kvHeads,
    headDim,
    eps: num(c, "rms_norm_eps", "rms_norm_eps", 1e-6),
    rope: { theta, headDim, scaling },
    maxPositions: int("max_position_embeddings", 4096),
    // LlamaConfig and Qwen2Config leave the head untied unless the config says so.
    tied: c.tie_word_embeddings === true,
    qkvBias: type === "qwen2" || bias,
    oBias: type === "llama" && bias,
  };
}
