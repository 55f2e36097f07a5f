import { createHash } from "node:crypto";
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { hubSettings } from "../../../hub";

// Where the ONNX graphs built from checkpoints are kept: beside the Hugging Face cache the weights
// come from ($HF_HOME/colbench-onnx, or $COLBENCH_ONNX_CACHE), named by a hash of the checkpoint
// (the weights' sha256 and config.json) and of the graph builder's version, so a changed
// checkpoint or builder makes a new graph and an unchanged one is built once.

export function onnxCacheDir(): string {
  return path.resolve(
    process.env.COLBENCH_ONNX_CACHE ?? path.join(path.dirname(hubSettings().cacheDir), "colbench-onnx"),
  );
}

/**
 * The sha256 of a weights file. A file in the hub cache is a link to blobs/<sha256> (LFS files are
 * named by it), which is read off the name; any other file is hashed once and remembered by path,
 * size and modification time.
 */
export async function weightsSha256(file: string): Promise<string> {
  const real = realpathSync(file);
  const name = path.basename(real);
  if (/^[0-9a-f]{64}$/.test(name) && path.basename(path.dirname(real)) === "blobs") return name;
  const stat = statSync(real);
  const indexFile = path.join(onnxCacheDir(), "hashes.json");
  const key = `${real}\0${stat.size}\0${stat.mtimeMs}`;
  let index: Record<string, string> = {};
  try {
    index = JSON.parse(readFileSync(indexFile, "utf8")) as Record<string, string>;
  } catch {
    // none yet
  }
  if (index[key]) return index[key];
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(real)) hash.update(chunk as Buffer);
  const digest = hash.digest("hex");
  mkdirSync(path.dirname(indexFile), { recursive: true });
  writeAtomically(indexFile, JSON.stringify({ ...index, [key]: digest }));
  return digest;
}

export function writeAtomically(file: string, bytes: Uint8Array | string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, file);
}

/** The graph file for a checkpoint folder, built by `build` the first time. */
export async function cachedGraph(
  folder: string,
  builderVersion: string,
  build: () => Uint8Array,
): Promise<{ file: string; built: boolean }> {
  const weights = await weightsSha256(path.join(folder, "model.safetensors"));
  const config = readFileSync(path.join(folder, "config.json"));
  const key = createHash("sha256")
    .update(weights)
    .update("\0")
    .update(config)
    .update("\0")
    .update(builderVersion)
    .digest("hex")
    .slice(0, 32);
  const file = path.join(onnxCacheDir(), `clip-vision-${key}.onnx`);
  if (existsSync(file)) return { file, built: false };
  writeAtomically(file, build());
  return { file, built: true };
}
