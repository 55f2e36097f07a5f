import { chooseFrontendEmbedder, CLIP_HUB_ID } from "../scoring/frontend/embedders/choose";
import { part, type Part } from "./types";

/**
 * Which image embedder the next frontend run would score with, and why: CLIP ViT-B/32 (the paper's
 * metric) when its weights are cached, named or fetchable; else the weight-free default-v2, whose
 * similarities are not comparable with the paper's. Never required: frontend runs work either way.
 */
export async function checkClip(options: { timeoutMs?: number } = {}): Promise<Part> {
  const choice = await chooseFrontendEmbedder({}, { timeoutMs: options.timeoutMs ?? 3000 });
  if (choice.embedder === "clip-vit-b32") {
    return part({
      id: "clip",
      name: "CLIP (frontend similarity)",
      status: "ok",
      required: false,
      summary: `the next frontend run uses ${choice.reason}`,
      details: { embedder: "clip-vit-b32", weights: choice.clip },
    });
  }
  return part({
    id: "clip",
    name: "CLIP (frontend similarity)",
    status: "degraded",
    required: false,
    summary: `the next frontend run uses ${choice.reason}`,
    fix: `on a machine with internet run \`npx colbench models download ${CLIP_HUB_ID}\` and copy its Hugging Face cache folder here (HF_HUB_CACHE), or set COLBENCH_CLIP to a folder holding config.json and model.safetensors`,
    details: { embedder: "default-v2" },
  });
}
