// `node --import ./lib/gpu/node/register-wgsl.mjs` (or importing it first) lets Node load .wgsl
// files as text modules. Hooks registered later run first, so this goes after tsx's. Inside a bundle
// (esbuild with --loader:.wgsl=text) the kernels are inlined and the hooks file is not beside it.
import fs from "node:fs";
import { register } from "node:module";

const hooks = new URL("./wgsl-hooks.mjs", import.meta.url);
if (hooks.protocol !== "file:" || fs.existsSync(hooks)) register(hooks);
