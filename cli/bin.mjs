#!/usr/bin/env node
// The CLI is TypeScript shared with the studio; tsx compiles it on the fly so there is no
// separate build step between `git pull` and `npx colbench`.
import { register } from "tsx/esm/api";

register();
// WGSL kernels (lib/gpu) are imported as text.
await import("../lib/gpu/node/register-wgsl.mjs");
await import("./main.ts");
