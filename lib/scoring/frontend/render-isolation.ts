import { spawnSync } from "node:child_process";

// The render worker and its Chromium run in a network namespace of their own with no interface
// up, so nothing a page does (WebSocket, sendBeacon, WebRTC, a popup) can reach any address, the
// studio's own included. Request interception still answers Tailwind and placeholder images;
// it no longer has to be the wall.

export interface RenderIsolation {
  /** "netns": its own network namespace; "userns+netns": the same inside a user namespace (no root); "none". */
  network: "netns" | "userns+netns" | "none";
  /** The command prefix that puts a process there, if any. */
  wrap: string[];
  /** One line for logs and reports. */
  describe: string;
}

let probed: RenderIsolation | null = null;

function works(args: string[]): boolean {
  const result = spawnSync("unshare", [...args, "--", "true"], { stdio: "ignore", timeout: 5_000 });
  return result.status === 0;
}

/** What this machine allows, probed once per process. COLBENCH_RENDER_NETNS=0 turns it off (for comparisons). */
export function renderIsolation(): RenderIsolation {
  if (probed) return probed;
  if (process.env.COLBENCH_RENDER_NETNS === "0") {
    probed = {
      network: "none",
      wrap: [],
      describe: "network: none (COLBENCH_RENDER_NETNS=0): interception, a proxy to nowhere and blocked popups only",
    };
  } else if (process.platform === "linux" && works(["--net"])) {
    probed = {
      network: "netns",
      wrap: ["unshare", "--net"],
      describe: "network: own namespace, no interface up; popups blocked",
    };
  } else if (process.platform === "linux" && works(["--map-root-user", "--net"])) {
    probed = {
      network: "userns+netns",
      wrap: ["unshare", "--map-root-user", "--net"],
      describe: "network: own user and network namespace, no interface up; popups blocked",
    };
  } else {
    probed = {
      network: "none",
      wrap: [],
      describe: `network: none (no network namespaces on ${process.platform}): interception, a proxy to nowhere and blocked popups only; WebSocket and WebRTC are not stopped`,
    };
  }
  return probed;
}
