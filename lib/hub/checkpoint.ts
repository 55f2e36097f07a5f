import { readFileSync } from "node:fs";
import path from "node:path";
import { HubError } from "./errors";
import { resolveModel, type ResolveOptions, type Resolved } from "./resolve";

// A transformers checkpoint as the studio's weight readers take it: config.json, safetensors
// weights (model.safetensors, or the shards model.safetensors.index.json names) and, when asked,
// the tokenizer's files. Never the .bin, .msgpack, .h5 or .onnx copies a repository also holds.

export const TOKENIZER_FILES = [
  "tokenizer.json",
  "tokenizer_config.json",
  "special_tokens_map.json",
  "generation_config.json",
  "chat_template.jinja",
];

export interface Checkpoint extends Resolved {
  /** The safetensors files holding the weights, relative to `folder`. */
  weights: string[];
}

export async function resolveCheckpoint(
  ref: string,
  options: Omit<ResolveOptions, "files" | "optional" | "type"> & { tokenizer?: boolean } = {},
): Promise<Checkpoint> {
  const { tokenizer, ...rest } = options;
  const extras = tokenizer ? TOKENIZER_FILES : [];
  const first = await resolveModel(ref, {
    ...rest,
    files: ["config.json"],
    optional: ["model.safetensors", "model.safetensors.index.json", ...extras],
  });
  if (first.files.includes("model.safetensors")) return { ...first, weights: ["model.safetensors"] };
  if (!first.files.includes("model.safetensors.index.json")) {
    throw new HubError(
      "missing-file",
      `${first.repo ?? first.folder} has no safetensors weights (model.safetensors or model.safetensors.index.json); the studio reads only safetensors`,
    );
  }
  const index = JSON.parse(readFileSync(path.join(first.folder, "model.safetensors.index.json"), "utf8")) as {
    weight_map?: Record<string, string>;
  };
  const shards = [...new Set(Object.values(index.weight_map ?? {}))].sort();
  if (!shards.length)
    throw new HubError("integrity", `${first.repo ?? first.folder}: model.safetensors.index.json names no shards`);
  const second = await resolveModel(
    first.source === "folder" ? first.folder : `${ref.replace(/@.*$/, "")}@${first.commit}`,
    {
      ...rest,
      files: ["config.json", "model.safetensors.index.json", ...shards],
      optional: extras,
    },
  );
  return {
    ...second,
    revision: first.revision,
    downloaded: [...first.downloaded, ...second.downloaded],
    weights: shards,
  };
}
