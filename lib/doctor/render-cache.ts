import fs from "node:fs/promises";
import path from "node:path";
import { defaultRenderDir } from "../scoring/frontend/render-cache";
import { part, type Part } from "./types";

/** Disk the content-addressed render cache takes (<data dir>/renders). */
export async function checkRenderCache(dir = defaultRenderDir()): Promise<Part> {
  let bytes = 0;
  let renders = 0;
  const walk = async (folder: string): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) {
        bytes += (await fs.stat(full)).size;
        if (entry.name.endsWith(".png")) renders++;
      }
    }
  };
  await walk(dir);
  const mb = bytes / 1024 / 1024;
  return part({
    id: "render-cache",
    name: "Render cache",
    status: "ok",
    required: false,
    summary: renders ? `${renders} renders, ${mb.toFixed(1)} MiB in ${dir}` : `empty (${dir})`,
    details: { path: dir, renders, bytes },
  });
}
