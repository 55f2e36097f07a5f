import fs from "node:fs/promises";
import path from "node:path";

// Files of Monaco's prebuilt editor, by their path under `monaco-editor/min/vs`. Only files inside
// that folder, of the kinds the editor loads, are ever read.

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".ttf": "font/ttf",
  ".json": "application/json",
};

export function monacoRoot(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "node_modules", "monaco-editor", "min", "vs");
}

export async function monacoFile(
  parts: string[],
  root = monacoRoot(),
): Promise<{ ok: true; body: Buffer; type: string } | { ok: false; error: string }> {
  const relative = parts.join("/");
  const type = TYPES[path.extname(relative)];
  if (
    !type ||
    parts.some((p) => p === "" || p === "." || p === ".." || p.includes("/") || p.includes("\\") || p.includes("\0"))
  )
    return { ok: false, error: "not a Monaco file" };
  const file = path.join(root, ...parts);
  try {
    // A link inside the package must not lead outside it.
    const [real, realRoot] = await Promise.all([fs.realpath(file), fs.realpath(root)]);
    if (!real.startsWith(realRoot + path.sep)) return { ok: false, error: "not a Monaco file" };
    return { ok: true, body: await fs.readFile(real), type };
  } catch {
    return { ok: false, error: `${relative} is not in monaco-editor/min/vs (npm install monaco-editor)` };
  }
}
