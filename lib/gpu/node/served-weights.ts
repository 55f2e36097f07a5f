import fs from "node:fs";
import path from "node:path";

// The model folders the studio serves to browsers that compute on their own GPU: the policy and
// critic a replay scores turns with (`colbench serve --policy-weights DIR --critic-weights DIR`, or
// COLBENCH_POLICY_WEIGHTS and COLBENCH_CRITIC_WEIGHTS), and CLIP's weights for the live similarity
// the collaborator seat shows (`--clip-weights DIR` or COLBENCH_CLIP_WEIGHTS; else $COLBENCH_CLIP
// when that is a folder). Only a model's own files are served, by name, from the folder itself.

export type ServedModel = "policy" | "critic" | "clip";
export const SERVED_MODELS: readonly ServedModel[] = ["policy", "critic", "clip"];

const ENV: Record<ServedModel, string> = {
  policy: "COLBENCH_POLICY_WEIGHTS",
  critic: "COLBENCH_CRITIC_WEIGHTS",
  clip: "COLBENCH_CLIP_WEIGHTS",
};

/** The names a model folder's files may have: config, tokenizer, chat template, safetensors (sharded too). */
const MODEL_FILE =
  /^(?:(?:config|generation_config|tokenizer|tokenizer_config|special_tokens_map)\.json|chat_template\.jinja|model(?:-\d{5}-of-\d{5})?\.safetensors|model\.safetensors\.index\.json)$/;

export function servedFolder(model: ServedModel): string | null {
  const dir = process.env[ENV[model]];
  if (dir) return path.resolve(dir);
  // CLIP's weights given to the CLI as a folder serve the browser too.
  const clip = process.env.COLBENCH_CLIP;
  if (model === "clip" && clip && fs.existsSync(path.join(clip, "config.json"))) return path.resolve(clip);
  return null;
}

/** Each scoring model's folder name (what the scores are recorded under), or null where none is served. */
export function servedModels(): Record<"policy" | "critic", string | null> {
  return {
    policy: servedFolder("policy") && path.basename(servedFolder("policy")!),
    critic: servedFolder("critic") && path.basename(servedFolder("critic")!),
  };
}

/** Checks a folder given to `colbench serve` and makes it the one served for `model`. */
export function serveWeights(model: ServedModel, dir: string, option: string): void {
  const resolved = path.resolve(dir);
  if (!fs.existsSync(path.join(resolved, "config.json")))
    throw new Error(`${option}: ${dir} is not a model folder (no config.json)`);
  process.env[ENV[model]] = resolved;
}

/** The path of a served model's file, or null when there is no such model or file (or the name is not a model file's). */
export function servedFile(model: string, name: string): string | null {
  if (!SERVED_MODELS.includes(model as ServedModel) || !MODEL_FILE.test(name)) return null;
  const dir = servedFolder(model as ServedModel);
  if (!dir) return null;
  const file = path.join(dir, name);
  try {
    return fs.statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}
