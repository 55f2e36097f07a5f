import { EMBEDDER_NAMES } from "../../colbench/run-config";
import { BROWSERS, PROFILE_NAMES } from "../../colbench/render-profile";
import type { ScoreCli } from "../score-cli";
import type { ScoreFrontendOptions } from "./score-file";

// `colbench score frontend`: described here, run by score-file.ts (browsers, embedders), loaded on use.

/** Where CLIP may run (lib/scoring/frontend/embedders' EMBEDDER_DEVICES; repeated here so describing the command loads no embedder). */
const DEVICES = ["cpu", "webgpu", "reference"] as const;

export const frontendScoreCli: ScoreCli = {
  description:
    "score frontend answers: cosine similarity of the answer's and the target's screenshots' image embeddings",
  input:
    "JSONL: {task: {ground_truth, problem_description}, answer} with answer the final HTML or a PNG path (or null)",
  options: [
    { flags: "--out <file>", description: "write every scored line again, with reward, embedder and render ids added" },
    {
      flags: "--embedder <name>",
      description:
        "image embedder: clip-vit-b32 (the paper's metric; the default whenever its weights are cached or can be fetched) or default (weight-free)",
      choices: EMBEDDER_NAMES,
    },
    {
      flags: "--clip <ref>",
      description:
        "CLIP ViT-B/32's weights: a folder (model.safetensors, config.json) or hub id; default $COLBENCH_CLIP, else openai/clip-vit-base-patch32 through the Hugging Face cache",
    },
    {
      flags: "--device <device>",
      description:
        "where CLIP runs: cpu (ONNX Runtime; default $COLBENCH_CLIP_DEVICE, else cpu), webgpu (WGSL kernels on this machine's GPU through Dawn, else Mesa's software adapter) or reference (TypeScript, for parity checks)",
      choices: DEVICES,
    },
    {
      flags: "--clip-onnx <file>",
      description:
        "cpu: run this exported graph (pixel_values in, image embeddings out) instead of one built from the weights; default $COLBENCH_CLIP_ONNX",
    },
    { flags: "--concurrency <n>", description: "pages rendered at once", positiveInt: true },
    {
      flags: "--profile <name>",
      description:
        "render profile: paper (the published scorer's screenshot, default) or studio-1280 (the studio's earlier 1280x800)",
      choices: PROFILE_NAMES,
    },
    {
      flags: "--browser <engine>",
      description:
        "render engine: chromium (default) or firefox (Firefox ESR, as the published scorer; scripts/setup.sh --with-firefox)",
      choices: BROWSERS,
    },
    {
      flags: "--placeholder-photo <file>",
      description:
        "the published placeholder photo (picsum.photos/id/48) for placeholder images; default $COLBENCH_PLACEHOLDER_PHOTO, else generated stand-ins",
    },
    { flags: "--no-cache", description: "neither read nor write renders in <data>/renders" },
  ],
  run: (file, options, { io, hubProgress }) =>
    import(/* turbopackIgnore: true */ "./score-file").then((m) =>
      m.scoreFrontendFile(file, options as ScoreFrontendOptions, io, undefined, hubProgress),
    ),
};
