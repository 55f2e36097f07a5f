import fs from "node:fs";
import path from "node:path";
import type { Gpu } from "../gpu";
import { CpuModel } from "../model/cpu-model";
import { GpuModel } from "../model/gpu-model";
import type { LoadProgress } from "../model/layout";
import { LocalScorer } from "../model/scorer";
import { parseConfig } from "../model/config";
import { jsonFile, type WeightSource } from "../model/source";
import { ModelTokenizer } from "../model/tokenizer";
import { folderSource } from "./folder-source";
import { openNodeGpu } from "./open";

// Opening a model for scoring on this machine (the CLI, benches, tests).

/**
 * Where a model's files are, from what a person typed (`--critic-weights`): a folder holding
 * config.json, tokenizer.json and safetensors. The one place to teach other locations (hub ids).
 */
export async function weightsSource(location: string, option = "weights"): Promise<WeightSource> {
  const dir = path.resolve(location);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory())
    throw new Error(
      `${option}: ${location} is not a folder (expected a Hugging Face model folder: config.json, tokenizer.json, *.safetensors)`,
    );
  if (!fs.existsSync(path.join(dir, "config.json"))) throw new Error(`${option}: ${location} has no config.json`);
  return folderSource(dir);
}

export type LocalDevice = "webgpu" | "cpu";

export async function openLocalScorer(
  location: string,
  options: {
    device?: LocalDevice;
    option?: string;
    onProgress?: (p: LoadProgress) => void;
    maxRows?: number;
    gpu?: Gpu;
  } = {},
): Promise<LocalScorer> {
  const source = await weightsSource(location, options.option);
  // The model's shape first: a model this runner cannot run is named before anything loads.
  parseConfig(await jsonFile(source, "config.json"), `${source.where}/config.json`);
  const tokenizer = await ModelTokenizer.load(source);
  const engine =
    options.device === "cpu"
      ? await CpuModel.load(source, options)
      : await GpuModel.load(options.gpu ?? (await openNodeGpu()), source, options);
  // The store records which model scored: the folder's name, as a server's model name would be.
  return new LocalScorer(engine, tokenizer, path.basename(path.resolve(location)));
}
