#!/usr/bin/env node
// The CLI is TypeScript shared with the studio; tsx compiles it on the fly so there is no
// separate build step between `git pull` and `npx colbench`.
//
// Everything is imported here with try/catch: when the install is broken (no node_modules, no
// generated database client after a failed postinstall, code that does not compile) a command
// prints what is missing and how to fix it, never a stack trace, and `colbench doctor` (the command
// for when things are broken) prints its report lines for what it can still check.
import { brokenInstall, printBroken } from "./broken-install.mjs";

try {
  const { register } = await import("tsx/esm/api");
  register();
  // WGSL kernels (lib/gpu) are imported as text.
  await import("../lib/gpu/node/register-wgsl.mjs");
  await import("./main.ts");
} catch (error) {
  const found = brokenInstall(error);
  if (!found || process.env.COLBENCH_DEBUG) console.error(error);
  printBroken(
    found ?? {
      what: "the studio's code",
      summary: `does not load: ${error?.message ?? error}`,
      fix: "run `npm ci`, then `git status` for local changes that break the build",
    },
    process.argv[2] === "doctor",
  );
  process.exit(1);
}
