import { assembleClipVision, type ClipVisionModel } from "./model";
import { safetensorsFromStream } from "../model/safetensors-bytes";
import type { WeightSource } from "../model/source";

/**
 * CLIP's vision tower from a checkpoint folder a page can fetch (the studio's /api/weights/clip/…):
 * config.json, then model.safetensors streamed once, keeping only the vision tower and projection
 * (from the first of them on, where the source can start a file part-way).
 */
export async function loadClipVisionFrom(
  source: WeightSource,
  onProgress?: (p: { loaded: number; total: number }) => void,
): Promise<ClipVisionModel> {
  const config = await source.text("config.json");
  if (config === null)
    throw new Error(`${source.where}: no config.json (is a CLIP folder served? colbench serve --clip-weights DIR)`);
  const total = await source.size("model.safetensors");
  const read = await safetensorsFromStream(
    await source.stream("model.safetensors"),
    (name) => name.startsWith("vision_model.") || name === "visual_projection.weight",
    (loaded) => onProgress?.({ loaded, total }),
    source.streamFrom ? (offset) => source.streamFrom!("model.safetensors", offset) : undefined,
  );
  return assembleClipVision(JSON.parse(config) as Record<string, unknown>, read);
}
