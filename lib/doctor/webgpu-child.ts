// Runs in a child process of `colbench doctor` (lib/doctor/webgpu.ts): dawn.node can abort the
// whole process when a driver misbehaves, so no adapter is ever requested in the caller's.
// argv[2]: a module exporting `openAdapter(): Promise<GPUAdapter | null>`, or "dawn:API:LEVEL"
// for the webgpu package's own create() on that graphics API ("default" for Dawn's choice).

export {};

const how = process.argv[2] ?? "dawn:default:core";

function describe(adapter: GPUAdapter | null): string {
  if (!adapter) return JSON.stringify({ adapter: null });
  const info = adapter.info;
  return JSON.stringify({
    adapter: {
      vendor: info.vendor,
      architecture: info.architecture,
      device: info.device,
      description: info.description,
      isFallbackAdapter: Boolean((info as { isFallbackAdapter?: boolean }).isFallbackAdapter),
      features: [...adapter.features].sort(),
    },
  });
}

let keep: unknown;
if (how.startsWith("dawn:")) {
  const [, api, level] = how.split(":");
  const { create, globals } = await import("webgpu");
  Object.assign(globalThis, globals);
  // Kept referenced until exit: once the GPU object is collected dawn.node aborts.
  const gpu = create(api && api !== "default" ? [`backend=${api}`] : []);
  keep = gpu;
  const adapter = await gpu.requestAdapter(level === "compatibility" ? { featureLevel: "compatibility" } : undefined);
  process.stdout.write(describe(adapter) + "\n");
} else {
  const opener = (await import(how)) as { openAdapter(): Promise<GPUAdapter | null> };
  process.stdout.write(describe(await opener.openAdapter()) + "\n");
}
void keep;
process.exit(0);
