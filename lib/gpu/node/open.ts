import fs from "node:fs";
import { deviceFor, NoAdapterError, type Gpu } from "../gpu";

// WebGPU in Node through Dawn (the `webgpu` package). A real GPU is reached through Vulkan; a machine
// without one (CI, this project's VMs) gets Dawn on OpenGL ES, on Mesa's llvmpipe, which needs
// no display (EGL's surfaceless platform) and only Debian's stock Mesa (scripts/setup.sh installs it).
// Debian 12's own lavapipe Vulkan driver is too old for Dawn, so Vulkan is not the software path.

type DawnModule = { create(flags: string[]): GPU };

// dawn.node aborts the process once the object create() returned is garbage-collected: keep them all.
const keepAlive: GPU[] = [];

const VULKAN_LOADERS = [
  "/usr/lib/x86_64-linux-gnu/libvulkan.so.1",
  "/usr/lib/aarch64-linux-gnu/libvulkan.so.1",
  "/usr/lib64/libvulkan.so.1",
  "/usr/lib/libvulkan.so.1",
  "/usr/local/lib/libvulkan.so.1",
];

/** The graphics APIs Dawn is asked to use here (Dawn's own word for them is "backend"). */
export type NodeGraphicsApi = "vulkan" | "opengles";

function graphicsApisToTry(): NodeGraphicsApi[] {
  const chosen = process.env.COLBENCH_WEBGPU_API;
  if (chosen === "vulkan" || chosen === "opengles") return [chosen];
  if (chosen) throw new Error(`COLBENCH_WEBGPU_API: expected vulkan or opengles, got "${chosen}"`);
  // Without a Vulkan loader Dawn only prints a warning and finds nothing; skip it quietly.
  const vulkan =
    process.platform !== "linux" ||
    Boolean(process.env.VK_ICD_FILENAMES || process.env.VK_DRIVER_FILES) ||
    VULKAN_LOADERS.some((f) => fs.existsSync(f));
  return vulkan ? ["vulkan", "opengles"] : ["opengles"];
}

async function adapterOn(dawn: DawnModule, api: NodeGraphicsApi): Promise<GPUAdapter | null> {
  if (api === "opengles") {
    // Mesa's EGL reads this when Dawn first opens it: no X or Wayland display needed.
    process.env.EGL_PLATFORM ??= "surfaceless";
    const gpu = dawn.create(["backend=opengles"]);
    keepAlive.push(gpu);
    return gpu.requestAdapter({ featureLevel: "compatibility" });
  }
  const gpu = dawn.create([]);
  keepAlive.push(gpu);
  return gpu.requestAdapter({ powerPreference: "high-performance" });
}

/** A WebGPU device in Node: the machine's GPU through Vulkan, else Mesa's software OpenGL ES. */
export async function openNodeGpu(): Promise<Gpu> {
  let dawn: DawnModule;
  try {
    dawn = await import("webgpu");
  } catch (error) {
    throw new NoAdapterError(`WebGPU for Node (the \`webgpu\` package) did not load: ${(error as Error).message}`);
  }
  const tried: string[] = [];
  for (const api of graphicsApisToTry()) {
    const adapter = await adapterOn(dawn, api);
    if (adapter) return deviceFor(adapter, api);
    tried.push(api);
  }
  throw new NoAdapterError(
    `no WebGPU adapter (tried ${tried.join(", ")}): a GPU needs its Vulkan driver (libvulkan1 and the vendor's ICD); ` +
      "without one, Mesa's software OpenGL ES is used (libegl1, libegl-mesa0, libgl1-mesa-dri: `npm run setup` installs them)",
  );
}
