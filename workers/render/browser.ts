import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";

// Chromium for untrusted pages: no network of its own (every request is intercepted anyway),
// nothing persisted between runs, no popups.

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";

/** Chromium for pages off the network, as a plain setup would start it. */
export const BASE_CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-extensions",
  "--disable-dev-shm-usage",
];

/** What the render pool adds; none of it changes pixels. */
export const POOL_CHROMIUM_FLAGS = [
  ...BASE_CHROMIUM_FLAGS,
  // window.open() and target=_blank fail instead of opening tabs a page could multiply.
  "--block-new-web-contents",
  // Whatever interception lets through goes to a proxy that is not there, loopback included
  // (the second wall; the first is the worker's own network namespace, lib/scoring/frontend/render-isolation.ts).
  "--proxy-server=http://127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>",
  // WebRTC may not pick any local address either.
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  // The address bar's popup is a web page of its own that Chromium keeps loaded per window, even
  // headless: two more renderers for each browser context, started with it and busy even while idle
  // (with the start tab closed, pool.ts, an idle lane's renderers spent 4 CPU-ms/s with them and 2
  // without; its browser 13 and 7).
  "--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup",
];

/** Debian's chromium-headless-shell (old headless) needs the plain --headless switch. */
export function headlessMode(executablePath: string): true | "shell" {
  return /headless[-_]shell/.test(path.basename(executablePath)) ? "shell" : true;
}

export interface LaunchedBrowser {
  browser: Browser;
  /** A plain function (it needs no `this`): pools hand it on to be called later. */
  close: () => Promise<void>;
}

export async function launchChromium(
  executablePath: string,
  flags: string[] = POOL_CHROMIUM_FLAGS,
  profileRoot = os.tmpdir(),
): Promise<LaunchedBrowser> {
  const profile = mkdtempSync(path.join(profileRoot, "colbench-chromium-"));
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath,
      headless: headlessMode(executablePath),
      pipe: true,
      args: [...flags, `--user-data-dir=${profile}`],
      defaultViewport: null,
      // A command to a wedged renderer fails after this instead of waiting forever.
      protocolTimeout: 30_000,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    browser,
    close: async () => {
      const proc = browser.process();
      await Promise.race([browser.close().catch(() => {}), new Promise((r) => setTimeout(r, 5_000))]);
      if (proc && proc.exitCode === null) proc.kill("SIGKILL");
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
