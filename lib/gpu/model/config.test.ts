import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { folderSource } from "../node/folder-source";
import { inverseFrequencies } from "../rope-table";
import { parseConfig } from "./config";
import { planLayout, streamCheckpoint } from "./layout";
import type { WeightSource } from "./source";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");

// Published configs' shapes (field names and values as the hub's config.json files carry them).
const llama31 = {
  model_type: "llama",
  hidden_size: 4096,
  intermediate_size: 14336,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  num_key_value_heads: 8,
  vocab_size: 128256,
  max_position_embeddings: 131072,
  rms_norm_eps: 1e-5,
  rope_theta: 500000.0,
  rope_scaling: {
    factor: 8.0,
    low_freq_factor: 1.0,
    high_freq_factor: 4.0,
    original_max_position_embeddings: 8192,
    rope_type: "llama3",
  },
  tie_word_embeddings: false,
  hidden_act: "silu",
};
const qwen25 = {
  model_type: "qwen2",
  hidden_size: 896,
  intermediate_size: 4864,
  num_hidden_layers: 24,
  num_attention_heads: 14,
  num_key_value_heads: 2,
  vocab_size: 151936,
  max_position_embeddings: 32768,
  rms_norm_eps: 1e-6,
  rope_theta: 1000000.0,
  rope_scaling: null,
  sliding_window: 32768,
  use_sliding_window: false,
  tie_word_embeddings: true,
  hidden_act: "silu",
};
const smollm2 = {
  ...llama31,
  hidden_size: 576,
  intermediate_size: 1536,
  num_hidden_layers: 30,
  num_attention_heads: 9,
  num_key_value_heads: 3,
  vocab_size: 49152,
  rope_theta: 100000,
  rope_scaling: null,
  tie_word_embeddings: true,
};

describe("config.json", () => {
  it("reads Llama 3.1, Qwen2.5 and SmolLM2 shapes", () => {
    expect(parseConfig(llama31)).toMatchObject({
      family: "llama",
      headDim: 128,
      kvHeads: 8,
      tied: false,
      qkvBias: false,
      rope: { theta: 500000, scaling: { type: "llama3", factor: 8, originalMaxPositions: 8192 } },
    });
    expect(parseConfig(qwen25)).toMatchObject({
      family: "qwen2",
      headDim: 64,
      kvHeads: 2,
      tied: true,
      qkvBias: true,
      oBias: false,
      rope: { theta: 1e6, scaling: { type: "default" } },
    });
    expect(parseConfig(smollm2)).toMatchObject({
      family: "llama",
      headDim: 64,
      tied: true,
      rope: { theta: 100000, scaling: { type: "default" } },
    });
  });

  it("reads transformers 5's rope_parameters as the older rope_theta + rope_scaling", () => {
    const { rope_theta, rope_scaling, ...rest } = llama31;
    const modern = parseConfig({ ...rest, rope_parameters: { ...rope_scaling, rope_theta } });
    expect(modern.rope).toEqual(parseConfig(llama31).rope);
    // Llama 3's scaling slows the long wavelengths by the factor and keeps the short ones.
    const plain = inverseFrequencies({ ...modern.rope, scaling: { type: "default" } });
    const scaled = inverseFrequencies(modern.rope);
    expect(scaled[0]).toBe(plain[0]);
    expect(scaled[63]! / plain[63]!).toBeCloseTo(1 / 8, 6);
  });

  it("names the file and the field of what it cannot run", () => {
    expect(() => parseConfig({ ...llama31, model_type: "mistral" }, "m/config.json")).toThrow(
      /^m\/config\.json: model_type: "mistral" is not a model/,
    );
    expect(() => parseConfig({ ...llama31, num_key_value_heads: 5 })).toThrow(
      "config.json: num_key_value_heads: 5 does not divide num_attention_heads 32",
    );
    expect(() => parseConfig({ ...llama31, hidden_size: "big" })).toThrow(
      'config.json: hidden_size: expected a positive whole number, got "big"',
    );
    expect(() => parseConfig({ ...qwen25, rope_scaling: { type: "yarn", factor: 4 } })).toThrow(
      'config.json: rope_scaling.rope_type: "yarn" rope scaling is not supported',
    );
    expect(() => parseConfig({ ...qwen25, use_sliding_window: true })).toThrow("config.json: use_sliding_window:");
  });
});

describe("safetensors checkpoints", () => {
  const folder = path.join(FIXTURES, "llama-tiny");
  const config = parseConfig(JSON.parse(fs.readFileSync(path.join(folder, "config.json"), "utf8")));
  const noop = () => ({ write() {}, end() {} });
  const cut = (bytes: number): WeightSource => {
    const real = folderSource(folder);
    return {
      ...real,
      stream: async (name) =>
        new ReadableStream({
          start(controller) {
            controller.enqueue(new Uint8Array(fs.readFileSync(path.join(folder, name)).subarray(0, bytes)));
            controller.close();
          },
        }),
    };
  };

  it("reads every tensor the model needs, in order, and reports progress to the end", async () => {
    const seen: string[] = [];
    const progress: number[] = [];
    await streamCheckpoint(
      folderSource(folder),
      planLayout(config),
      (entry) => (seen.push(entry.name), noop()),
      (p) => progress.push(p.loaded / p.total),
    );
    expect(seen).toHaveLength(planLayout(config).required.length);
    expect(progress.at(-1)).toBe(1);
  });

  it("says where a truncated file ends", async () => {
    await expect(streamCheckpoint(cut(100_000), planLayout(config), noop)).rejects.toThrow(
      /llama-tiny\/model\.safetensors: ends inside tensor \S+ \(at byte 100000 of \d+\)/,
    );
    await expect(streamCheckpoint(cut(4), planLayout(config), noop)).rejects.toThrow(
      "model.safetensors: the file ends after 4 bytes",
    );
  });

  it("names a tensor whose shape the config does not expect, and tensors that are missing", async () => {
    await expect(streamCheckpoint(folderSource(folder), planLayout({ ...config, inner: 100 }), noop)).rejects.toThrow(
      /tensor model\.layers\.0\.mlp\.\w+_proj\.weight has shape \[\d+,\d+\], config\.json says/,
    );
    await expect(streamCheckpoint(folderSource(folder), planLayout({ ...config, layers: 3 }), noop)).rejects.toThrow(
      "the checkpoint lacks model.layers.2.",
    );
  });
});
