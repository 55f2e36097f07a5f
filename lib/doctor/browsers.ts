import fs from "node:fs/promises";
import { defaultChromium } from "../scoring/frontend/render";
import type { RenderIsolation } from "../scoring/frontend/render-isolation";
import { runProgram } from "./proc";
import { part, type Part } from "./types";

const CHROMIUM_FIX =
  "run `npm run setup` (installs Debian's chromium with apt-get), or set COLBENCH_CHROMIUM to a Chromium or Chrome binary";

async function versionOf(binary: string): Promise<string | undefined> {
  // Debian's /usr/bin/chromium is a wrapper script that also prints a harmless shell warning on stderr.
  const run = await runProgram(binary, ["--version"], { timeoutMs: 20_000 });
  return /(\d+\.\d+(?:\.\d+)*)/.exec(run.stdout)?.[1];
}

const exists = (file: string) =>
  fs.access(/*turbopackIgnore: true*/ file).then(
    () => true,
    () => false,
  );

let isolation: Promise<Pick<RenderIsolation, "network" | "describe">> | undefined;

/**
 * What render-isolation.ts finds, probed with child processes the caller does not wait on: its
 * own probe is synchronous, which is fine for a render worker starting but froze the studio when
 * the System page checked in the server process. Same order, same verdicts.
 */
export function probeRenderIsolation(): Promise<Pick<RenderIsolation, "network" | "describe">> {
  const works = async (args: string[]) =>
    (await runProgram("unshare", [...args, "--", "true"], { timeoutMs: 5_000 })).code === 0;
  isolation ??= (async () => {
    if (process.env.COLBENCH_RENDER_NETNS === "0")
      return {
        network: "none" as const,
        describe: "network: none (COLBENCH_RENDER_NETNS=0): interception, a proxy to nowhere and blocked popups only",
      };
    if (process.platform === "linux" && (await works(["--net"])))
      return { network: "netns" as const, describe: "network: own namespace, no interface up; popups blocked" };
    if (process.platform === "linux" && (await works(["--map-root-user", "--net"])))
      return {
        network: "userns+netns" as const,
        describe: "network: own user and network namespace, no interface up; popups blocked",
      };
    return {
      network: "none" as const,
      describe: `network: none (no network namespaces on ${process.platform}): interception, a proxy to nowhere and blocked popups only; WebSocket and WebRTC are not stopped`,
    };
  })();
  return isolation;
}

/** The browser that renders frontend answers and targets, and how its renderer is kept off the network. */
export async function checkChromium(binary = defaultChromium()): Promise<Part> {
  const from = process.env.COLBENCH_CHROMIUM ? "COLBENCH_CHROMIUM" : "default";
  if (!(await exists(binary))) {
    return part({
      id: "chromium",
      name: "Chromium",
      status: "missing",
      required: true,
      summary: `${binary} not found (${from === "default" ? "the default path" : "from COLBENCH_CHROMIUM"}): frontend pages cannot be rendered or scored`,
      fix: CHROMIUM_FIX,
      details: { path: binary, from },
    });
  }
  const version = await versionOf(binary);
  if (!version) {
    return part({
      id: "chromium",
      name: "Chromium",
      status: "missing",
      required: true,
      summary: `${binary} does not run (\`--version\` printed no version)`,
      fix: CHROMIUM_FIX,
      details: { path: binary, from },
    });
  }
  const isolation = await probeRenderIsolation();
  const isolated = isolation.network !== "none";
  return part({
    id: "chromium",
    name: "Chromium",
    status: isolated ? "ok" : "degraded",
    required: true,
    summary: `${version} at ${binary}; renderer ${isolation.describe}`,
    fix: isolated
      ? undefined
      : "run the studio on Linux where `unshare --net` works (as root, or with unprivileged user namespaces enabled) so rendered pages cannot reach the network",
    details: { path: binary, from, version, network: isolation.network, isolation: isolation.describe },
  });
}

/** Firefox ESR: a second renderer some comparisons use; nothing in the studio needs it. */
export async function checkFirefox(binary = process.env.COLBENCH_FIREFOX || "/usr/bin/firefox-esr"): Promise<Part> {
  if (!(await exists(binary))) {
    return part({
      id: "firefox",
      name: "Firefox",
      status: "missing",
      required: false,
      summary: `${binary} not found (optional: Firefox rendering)`,
      fix: "apt-get install -y firefox-esr (Debian), or set COLBENCH_FIREFOX to a Firefox binary",
      details: { path: binary },
    });
  }
  const version = await versionOf(binary);
  return part({
    id: "firefox",
    name: "Firefox",
    status: version ? "ok" : "degraded",
    required: false,
    summary: version ? `${version} at ${binary}` : `${binary} does not run (\`--version\` printed no version)`,
    fix: version ? undefined : "reinstall it: apt-get install --reinstall -y firefox-esr",
    details: { path: binary, version: version ?? null },
  });
}
