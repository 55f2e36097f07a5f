import { deviceFor, NoAdapterError, type Gpu } from "./gpu";

/** A WebGPU device in a page or Web Worker (navigator.gpu), with a message saying why where there is none. */
export async function openBrowserGpu(
  gpu: GPU | undefined = (globalThis.navigator as Navigator | undefined)?.gpu,
): Promise<Gpu> {
  if (!gpu)
    throw new NoAdapterError(
      "this browser has no WebGPU (navigator.gpu is missing): use a recent Chrome, Edge or Safari, or Firefox with WebGPU enabled, over https or localhost",
    );
  const adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
  if (!adapter)
    throw new NoAdapterError(
      "this browser has WebGPU but gave no adapter (its GPU is blocked or disabled; in Chrome see chrome://gpu)",
    );
  return deviceFor(adapter, "browser");
}
