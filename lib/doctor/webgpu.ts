import { spawn } from "node:child_process";
import { checkoutFile } from "./files";
import { part, type Part } from "./types";

export interface AdapterReport {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  isFallbackAdapter: boolean;
  features: string[];
}

export interface ProbeResult {
  adapter: AdapterReport | null;
  /** How the adapter was asked for ("dawn:opengles:compatibility", or the opener module). */
  how: string;
  /** Why each attempt gave no adapter. */
  failures: string[];
}

/**
 * The ways tried when no opener is named: Dawn's own choice (Vulkan where a loader and driver are
 * installed), then Dawn on OpenGL ES, on Mesa without a display (compatibility level).
 */
const BUILT_IN: Array<{ how: string; env?: Record<string, string> }> = [
  { how: "dawn:default:core" },
  { how: "dawn:opengles:compatibility", env: { EGL_PLATFORM: "surfaceless" } },
];

function attempt(
  how: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ adapter: AdapterReport | null; failure?: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", checkoutFile("lib", "doctor", "webgpu-child.ts"), how], {
      cwd: checkoutFile(),
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err = (err + chunk).slice(-4000)));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      const line = out.trim().split("\n").pop() ?? "";
      try {
        const parsed = JSON.parse(line) as { adapter: AdapterReport | null };
        if (parsed.adapter) return resolve({ adapter: parsed.adapter });
      } catch {
        // no answer: say why below
      }
      const lastError = err
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith("at "))
        .slice(-1)[0];
      const reason = signal
        ? `the probe was killed by ${signal}${signal === "SIGKILL" ? ` after ${timeoutMs / 1000} s` : ""}`
        : code === 0
          ? "requestAdapter() returned null"
          : `the probe exited with status ${code}`;
      resolve({ adapter: null, failure: `${how}: ${reason}${lastError ? ` (${lastError})` : ""}` });
    });
  });
}

/**
 * Asks for a WebGPU adapter in a child process, so a driver that aborts takes only the child down.
 * `opener` names a module exporting `openAdapter()` (e.g. lib/gpu's, which sets up its own
 * software driver); without one the built-in ways above are tried in turn.
 */
export async function probeWebGpu(options: { opener?: string; timeoutMs?: number } = {}): Promise<ProbeResult> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const ways = options.opener ? [{ how: options.opener }] : BUILT_IN;
  const failures: string[] = [];
  for (const way of ways) {
    const result = await attempt(way.how, way.env ?? {}, timeoutMs);
    if (result.adapter) return { adapter: result.adapter, how: way.how, failures };
    failures.push(result.failure!);
  }
  return { adapter: null, how: ways.map((w) => w.how).join(", "), failures };
}

const SOFTWARE = /llvmpipe|lavapipe|swiftshader|softpipe|software/i;

export async function checkWebGpu(options: { opener?: string } = {}): Promise<Part> {
  const probe = await probeWebGpu(options);
  const a = probe.adapter;
  if (!a) {
    return part({
      id: "webgpu",
      name: "WebGPU",
      status: "missing",
      required: false,
      summary: `none, because ${probe.failures.join("; ")}`,
      fix: "for GPU scoring install a Vulkan driver and loader (apt-get install libvulkan1 mesa-vulkan-drivers, or the GPU vendor's); nothing else in the studio needs WebGPU",
      details: { how: probe.how, failures: probe.failures },
    });
  }
  const software = a.isFallbackAdapter || SOFTWARE.test(`${a.vendor} ${a.architecture} ${a.device} ${a.description}`);
  const name = [a.vendor, a.architecture, a.device].filter(Boolean).join(" / ") || a.description;
  return part({
    id: "webgpu",
    name: "WebGPU",
    status: software ? "degraded" : "ok",
    required: false,
    summary: `${software ? "software adapter" : "adapter"} ${name}${a.description && !name.includes(a.description) ? ` (${a.description})` : ""} via ${probe.how}; ${a.features.length} features`,
    fix: software
      ? "a software adapter computes correctly but slowly: GPU speed needs a GPU with a Vulkan driver"
      : undefined,
    details: { how: probe.how, ...a, failures: probe.failures },
  });
}
