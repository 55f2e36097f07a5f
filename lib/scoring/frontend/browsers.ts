import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import type { BrowserName } from "../../colbench/render-profile";

// Where each render engine lives and how to add the one a machine lacks. Chromium comes with the
// setup; Firefox only when asked (scripts/setup.sh --with-firefox), as most people never need it.

/** $COLBENCH_CHROMIUM, else Debian's /usr/bin/chromium (see workers/render/README.md for why not headless-shell). */
export function defaultChromium(): string {
  return process.env.COLBENCH_CHROMIUM || "/usr/bin/chromium";
}

/** $COLBENCH_FIREFOX, else Debian's Firefox ESR. */
export function defaultFirefox(): string {
  return process.env.COLBENCH_FIREFOX || "/usr/bin/firefox-esr";
}

export function defaultExecutable(browser: BrowserName): string {
  return browser === "firefox" ? defaultFirefox() : defaultChromium();
}

export const INSTALL_FIREFOX =
  "install it with `scripts/setup.sh --with-firefox` (Debian: `apt-get install -y firefox-esr`), or set COLBENCH_FIREFOX to a Firefox binary";
export const INSTALL_CHROMIUM =
  "install it with `scripts/setup.sh` (Debian: `apt-get install -y chromium`), or set COLBENCH_CHROMIUM to a Chromium binary";

export interface EngineStatus {
  browser: BrowserName;
  found: boolean;
  path: string;
  /** e.g. "Mozilla Firefox 153.7.0esr", when the binary answered --version. */
  version?: string;
  /** What to do when it is missing. */
  install: string;
}

/** Whether this machine has the engine, for `colbench doctor` and for a render's error message. */
export function detectEngine(browser: BrowserName): EngineStatus {
  const path = defaultExecutable(browser);
  const install = browser === "firefox" ? INSTALL_FIREFOX : INSTALL_CHROMIUM;
  if (!existsSync(path)) return { browser, found: false, path, install };
  const run = spawnSync(path, ["--version"], {
    encoding: "utf8",
    timeout: 20_000,
    env: { ...process.env, MOZ_HEADLESS: "1" },
  });
  const version = /(Mozilla Firefox|Chromium|Google Chrome)[^\n]*/.exec(`${run.stdout ?? ""}`)?.[0]?.trim();
  return { browser, found: true, path, ...(version ? { version } : {}), install };
}

/** Firefox for `--browser firefox` (the one `colbench doctor` reports). */
export function detectFirefox(): EngineStatus {
  return detectEngine("firefox");
}

/** Throws the instruction to add the engine when it is not there. */
export function requireEngine(browser: BrowserName, executablePath = defaultExecutable(browser)): void {
  if (existsSync(executablePath)) return;
  throw new Error(
    `${browser} is not installed (no ${executablePath}): ${browser === "firefox" ? INSTALL_FIREFOX : INSTALL_CHROMIUM}`,
  );
}
