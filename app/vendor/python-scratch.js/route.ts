import fs from "node:fs/promises";
import path from "node:path";

let source: Promise<Buffer> | undefined;

/** The agent seat's Python scratch worker (workers/browser/python-scratch.js), served as a module worker. */
export async function GET() {
  source ??= fs.readFile(path.join(process.cwd(), "workers", "browser", "python-scratch.js"));
  return new Response(new Uint8Array(await source), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
