import fs from "node:fs/promises";
import path from "node:path";

export const dynamic = "force-dynamic";

// Pyodide for the agent seat's "run my code" scratch area: it runs in the person's own browser,
// in a Web Worker, on their own code. Only the files it loads are served.
const FILES: Record<string, string> = {
  "pyodide.js": "text/javascript; charset=utf-8",
  "pyodide.mjs": "text/javascript; charset=utf-8",
  "pyodide.asm.mjs": "text/javascript; charset=utf-8",
  "pyodide.asm.js": "text/javascript; charset=utf-8",
  "pyodide.asm.wasm": "application/wasm",
  "python_stdlib.zip": "application/zip",
  "pyodide-lock.json": "application/json",
};

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const type = FILES[file];
  if (!type) return new Response("not a Pyodide file", { status: 404 });
  try {
    const body = await fs.readFile(path.join(process.cwd(), "node_modules", "pyodide", file));
    return new Response(new Uint8Array(body), {
      headers: { "Content-Type": type, "Cache-Control": "public, max-age=86400" },
    });
  } catch {
    return new Response(`${file} is not installed (npm install pyodide)`, { status: 404 });
  }
}
