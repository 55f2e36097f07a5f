// `node --import ./lib/gpu/node/register-wgsl.mjs` (or importing it first) lets Node load .wgsl
// files as text modules. Hooks registered later run first, so this goes after tsx's.
import { register } from "node:module";

register("./wgsl-hooks.mjs", import.meta.url);
