import path from "node:path";
import { resolveCheckpoint, type FileProgress } from "../../hub";
import type { LocalPlayer } from "../../colbench/run-config";
import type { Gpu } from "../gpu";
import { LocalGenerator } from "../generate/local-generator";
import { checkSampling } from "../generate/sampler";
import { parseConfig } from "../model/config";
import { CpuModel } from "../model/cpu-model";
import { GpuModel } from "../model/gpu-model";
import type { LoadProgress } from "../model/layout";
import { jsonFile } from "../model/source";
import { ModelTokenizer } from "../model/tokenizer";
import { folderSource } from "./folder-source";
import type { LocalDevice } from "./local-scorer";
import { openNodeGpu } from "./open";

// Opening a chat model for generation in Node (`colbench run --agent local:MODEL`, benches, tests):
// a folder or a hub id, resolved through the shared Hugging Face cache (fetched into it when
// missing and allowed), on Dawn or on the CPU reference path.

export interface OpenGeneratorOptions {
  device?: LocalDevice;
  gpu?: Gpu;
  /** Bytes of weights read into the runner. */
  onProgress?: (p: LoadProgress) => void;
  /** Files fetched from the hub (only when the cache lacks them). */
  onFetch?: (p: FileProgress) => void;
  maxRows?: number;
}

/** What a run records as the model: the hub id as given (with a revision when one was named), else the folder's full path. */
function recordedModel(ref: string, checkpoint: { source: string; folder: string }): string {
  return checkpoint.source === "folder" ? path.resolve(checkpoint.folder) : ref;
}

/**
 * The run config's record of `--agent local:MODEL`, made before the run is: the model is resolved
 * (fetched into the cache when missing) and its chat template read, so a model that cannot chat is
 * refused before any episode starts.
 */
export async function localAgentPlayer(
  ref: string,
  options: { device: LocalDevice; topP: number; seed: number; onFetch?: (p: FileProgress) => void },
): Promise<LocalPlayer> {
  if (!ref.trim()) throw new Error("--agent local:MODEL: give a model folder or hub id after local:");
  const checkpoint = await resolveCheckpoint(ref, { tokenizer: true, onProgress: options.onFetch });
  const source = folderSource(checkpoint.folder);
  parseConfig(await jsonFile(source, "config.json"), `${source.where}/config.json`);
  const tokenizer = await ModelTokenizer.load(source);
  if (!tokenizer.chatTemplate())
    throw new Error(
      `${source.where}: no chat_template.jinja and no chat_template in tokenizer_config.json, so the agent's conversation cannot be written for this model`,
    );
  checkSampling({ temperature: 0, topP: options.topP, seed: options.seed }, "--agent local:");
  return {
    local: {
      model: recordedModel(ref, checkpoint),
      device: options.device,
      template: tokenizer.templateFamily() ?? "model's own chat_template",
      topP: options.topP,
      seed: options.seed,
    },
  };
}

export async function openLocalGenerator(ref: string, options: OpenGeneratorOptions = {}): Promise<LocalGenerator> {
  const checkpoint = await resolveCheckpoint(ref, { tokenizer: true, onProgress: options.onFetch });
  const source = folderSource(checkpoint.folder);
  // The model's shape first: a model this runner cannot run is named before anything loads.
  parseConfig(await jsonFile(source, "config.json"), `${source.where}/config.json`);
  const tokenizer = await ModelTokenizer.load(source);
  const engine =
    options.device === "cpu"
      ? await CpuModel.load(source, options)
      : await GpuModel.load(options.gpu ?? (await openNodeGpu()), source, options);
  return LocalGenerator.load(engine, tokenizer, source, recordedModel(ref, checkpoint));
}
