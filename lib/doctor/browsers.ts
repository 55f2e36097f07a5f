import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { defaultChromium } from "../scoring/frontend/render";
import { renderIsolation } from "../scoring/frontend/render-isolation";
import { part, type Part } from "./types";

const CHROMIUM_FIX = "run `npm run setup` (installs Debian's chromium with apt-get), or set COLBENCH_CHROMIUM to a Chromium or Chrome binary";

function versionOf(binary: string): string | undefined {
  // Debian's /usr/bin/chromium is a wrapper script that also prints a harmless shell warning on stderr.
  const run = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 20_000 });
  return /(\d+\.\d+(?:\.\d+)*)/.exec(run.stdout ?? "")?.[1];
}

/** The browser that renders frontend answers and targets, and how its renderer is kept off the network. */
export function checkChromium(binary = defaultChromium()): Part {
  const from = process.env.COLBENCH_CHROMIUM ? "COLBENCH_CHROMIUM" : "default";
  if (!fs.existsSync(/*turbopackIgnore: true*/ binary)) {
    return part({ id: "chromium", name: "Chromium", status: "missing", required: true, summary: `${binary} not found (${from === "default" ? "the default path" : "from COLBENCH_CHROMIUM"}): frontend pages cannot be rendered or scored`, fix: CHROMIUM_FIX, details: { path: binary, from } });
  }
  const version = versionOf(binary);
  if (!version) {
    return part({ id: "chromium", name: "Chromium", status: "missing", required: true, summary: `${binary} does not run (\`--version\` printed no version)`, fix: CHROMIUM_FIX, details: { path: binary, from } });
  }
  const isolation = renderIsolation();
  const isolated = isolation.network !== "none";
  return part({
    id: "chromium",
    name: "Chromium",
    status: isolated ? "ok" : "degraded",
    required: true,
    summary: `${version} at ${binary}; renderer ${isolation.describe}`,
    fix: isolated ? undefined : "run the studio on Linux where `unshare --net` works (as root, or with unprivileged user namespaces enabled) so rendered pages cannot reach the network",
    details: { path: binary, from, version, network: isolation.network, isolation: isolation.describe },
  });
}

/** Firefox ESR: a second renderer some comparisons use; nothing in the studio needs it. */
export function checkFirefox(binary = process.env.COLBENCH_FIREFOX || "/usr/bin/firefox-esr"): Part {
  if (!fs.existsSync(/*turbopackIgnore: true*/ binary)) {
    return part({ id: "firefox", name: "Firefox", status: "missing", required: false, summary: `${binary} not found (optional: Firefox rendering)`, fix: "apt-get install -y firefox-esr (Debian), or set COLBENCH_FIREFOX to a Firefox binary", details: { path: binary } });
  }
  const version = versionOf(binary);
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
