// Node module hooks: `import source from "./kernel.wgsl"` gives the file's text, as the studio's
// bundler (next.config.ts) and Vitest (vitest.config.ts) do. Registered by register-wgsl.mjs.
import { readFile } from "node:fs/promises";

export async function load(url, context, nextLoad) {
  if (!url.endsWith(".wgsl")) return nextLoad(url, context);
  const text = await readFile(new URL(url), "utf8");
  return { format: "module", source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
}
