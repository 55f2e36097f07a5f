import type { EmbedderName } from "../../../colbench/run-config";
import { formatBytes, HubError, hubSettings, probeModel } from "../../../hub";

// Which embedder a frontend run or score uses when nobody says: CLIP ViT-B/32, the paper's metric,
// whenever its weights are in the shared cache or can be fetched; the weight-free default only
// when neither, said in one line, because its numbers are not comparable with the paper's.

export const CLIP_HUB_ID = "openai/clip-vit-base-patch32";
/** What the CLIP embedder reads of a checkpoint (the vision tower's weights sit in model.safetensors). */
export const CLIP_FILES = ["config.json", "model.safetensors"];

export interface EmbedderChoice {
  embedder: EmbedderName;
  /** For clip-vit-b32: the folder or hub id its weights come from. */
  clip?: string;
  /** Why, in a sentence a person reads on the run form or in a log. */
  reason: string;
  /** One line to print at the start of a run that falls back to the weight-free embedder. */
  notice?: string;
}

export async function chooseFrontendEmbedder(
  asked: { embedder?: EmbedderName; clip?: string } = {},
  options: { timeoutMs?: number } = {},
): Promise<EmbedderChoice> {
  if (asked.embedder === "default")
    return {
      embedder: "default",
      reason: "the weight-free embedder (default-v2) was asked for; its scores are not comparable with the paper's",
    };
  const given = asked.clip ?? process.env.COLBENCH_CLIP;
  if (given || asked.embedder === "clip-vit-b32") {
    return {
      embedder: "clip-vit-b32",
      clip: given ?? CLIP_HUB_ID,
      reason: `CLIP ViT-B/32 was asked for (weights: ${given ?? CLIP_HUB_ID})`,
    };
  }
  const settings = hubSettings();
  try {
    const found = await probeModel(CLIP_HUB_ID, { files: CLIP_FILES, timeoutMs: options.timeoutMs });
    if (found.state === "fetchable") {
      return {
        embedder: "clip-vit-b32",
        clip: CLIP_HUB_ID,
        reason: `CLIP ViT-B/32, the paper's metric: ${CLIP_HUB_ID} will be downloaded from ${settings.endpoint} (${formatBytes(found.bytes)}) into ${settings.cacheDir} when the run starts scoring`,
      };
    }
    return {
      embedder: "clip-vit-b32",
      clip: CLIP_HUB_ID,
      reason: `CLIP ViT-B/32, the paper's metric: ${CLIP_HUB_ID} is in the Hugging Face cache (${settings.cacheDir})`,
    };
  } catch (error) {
    const why = error instanceof HubError ? error.message : String(error);
    const reason = `the weight-free default-v2, because CLIP ViT-B/32 can be neither found nor fetched: ${why}`;
    return {
      embedder: "default",
      reason,
      notice: `frontend similarity uses default-v2, not CLIP ViT-B/32 (not comparable with the paper's scores): ${why}`,
    };
  }
}
