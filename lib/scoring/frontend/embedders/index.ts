import type { EmbedderName } from "../../../colbench/run-config";
import { resolveModel, type FileProgress } from "../../../hub";
import type { GpuClipOptions } from "../../../gpu/clip/vision";
import { ClipEmbedder } from "./clip";
import { loadClipVision } from "./clip-vision";
import { CLIP_FILES, CLIP_HUB_ID } from "./choose";
import { DefaultEmbedder } from "./default";
import type { ImageEmbedder } from "./types";

export type { ImageEmbedder } from "./types";
export { chooseFrontendEmbedder, CLIP_HUB_ID, type EmbedderChoice } from "./choose";

/**
 * Where CLIP runs. Every device computes the same embedding (parity-tested), so scores record the
 * same embedder id whichever ran (and the run records the device beside it): `cpu` is ONNX Runtime
 * on the CPU (the default), `webgpu` the WGSL kernels of lib/gpu on this machine's adapter (Dawn),
 * `reference` the TypeScript forward pass kept for parity tests.
 */
export const EMBEDDER_DEVICES = ["cpu", "webgpu", "reference"] as const;
export type EmbedderDevice = (typeof EMBEDDER_DEVICES)[number];

export interface EmbedderOptions {
  /** openai/clip-vit-base-patch32's weights: a folder or a hub id; default $COLBENCH_CLIP, else that hub id. */
  clipPath?: string;
  /** Default $COLBENCH_CLIP_DEVICE, else cpu. */
  device?: EmbedderDevice;
  /** cpu: a graph exported elsewhere to run instead of the one built from the weights; default $COLBENCH_CLIP_ONNX. */
  onnxFile?: string;
  /** webgpu: images per batch (lowered to the adapter's limits; default 16) and the weights' format (default f16 where the adapter has shader-f16). */
  webgpu?: GpuClipOptions;
  /** Download progress, when the weights come from the hub for the first time. */
  onProgress?: (progress: FileProgress) => void;
  /** cpu: told when an ONNX graph is built from the weights (once per checkpoint). */
  onBuild?: (file: string) => void;
}

type DeviceLoader = (folder: string, options: EmbedderOptions) => Promise<ImageEmbedder>;

const DEVICES: Record<EmbedderDevice, DeviceLoader> = {
  cpu: async (folder, options) => {
    // Loaded only when used: the native binding is large and the default embedder needs none of it.
    const { OnnxClipEmbedder } = await import("./clip-onnx");
    return OnnxClipEmbedder.load(folder, { onnxFile: options.onnxFile, onBuild: options.onBuild });
  },
  webgpu: async (folder, options) => {
    const [{ openNodeGpu }, { WebGpuClipEmbedder }] = await Promise.all([
      import("../../../gpu/node/open"),
      import("./clip-webgpu"),
    ]);
    return WebGpuClipEmbedder.fromModel(await openNodeGpu(), loadClipVision(folder), options.webgpu, true);
  },
  reference: async (folder) => ClipEmbedder.load(folder),
};

export function parseDevice(value: string): EmbedderDevice {
  if ((EMBEDDER_DEVICES as readonly string[]).includes(value)) return value as EmbedderDevice;
  throw new Error(`unknown CLIP device "${value}" (${EMBEDDER_DEVICES.join(", ")})`);
}

/** The one way to an image embedder. CLIP's weights are resolved through the shared Hugging Face cache. */
export async function createEmbedder(name: EmbedderName, options: EmbedderOptions = {}): Promise<ImageEmbedder> {
  if (name === "default") return new DefaultEmbedder();
  const device = options.device ?? parseDevice(process.env.COLBENCH_CLIP_DEVICE || "cpu");
  const onnxFile = device === "cpu" ? (options.onnxFile ?? (process.env.COLBENCH_CLIP_ONNX || undefined)) : undefined;
  const ref = options.clipPath ?? process.env.COLBENCH_CLIP ?? CLIP_HUB_ID;
  // A graph exported elsewhere carries its weights: only the config is read from the checkpoint.
  const { folder } = await resolveModel(ref, {
    files: onnxFile ? ["config.json"] : CLIP_FILES,
    onProgress: options.onProgress,
  });
  return DEVICES[device](folder, { ...options, onnxFile });
}
