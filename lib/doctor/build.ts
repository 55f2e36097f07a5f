import fs from "node:fs/promises";
import path from "node:path";
import { checkoutFile } from "./files";
import { runProgram } from "./proc";
import { part, type Part } from "./types";

const BUILD_FIX = "run `npm run setup` (builds when the sources changed), or `npm run build`";

const read = (file: string) =>
  fs.readFile(/*turbopackIgnore: true*/ file, "utf8").then(
    (text) => text.trim(),
    () => undefined,
  );

/**
 * The production build `colbench serve` starts from (.next/BUILD_ID; without it the studio refuses
 * to start) and, where setup left a stamp beside it, whether it was built from these sources.
 * `root` is the checkout; `dev` says the pages are compiled on demand (`serve --dev`), so none is needed.
 */
export async function checkBuild(options: { root?: string; dev?: boolean } = {}): Promise<Part> {
  const root = options.root ?? checkoutFile();
  const base = { id: "build", name: "Studio build", required: true };
  if (options.dev)
    return part({
      ...base,
      status: "ok",
      summary: "development mode: pages are compiled as they are asked for",
      details: { root, dev: true },
    });
  const nextDir = path.join(root, ".next");
  const buildId = await read(path.join(nextDir, "BUILD_ID"));
  if (!buildId) {
    const folder = await fs.stat(/*turbopackIgnore: true*/ nextDir).then(
      () => true,
      () => false,
    );
    return part({
      ...base,
      status: "missing",
      summary: `${folder ? ".next/BUILD_ID" : ".next"} not found in ${root}: \`colbench serve\` (and \`npm run studio\`) cannot start without a production build`,
      fix: BUILD_FIX,
      details: { root, buildId: null },
    });
  }
  const stamp = await read(path.join(nextDir, "colbench-build-stamp"));
  const stamper = path.join(root, "scripts", "build-stamp.mjs");
  if (
    !stamp ||
    !(await fs.stat(/*turbopackIgnore: true*/ stamper).then(
      () => true,
      () => false,
    ))
  ) {
    return part({
      ...base,
      status: "ok",
      summary: `built (${buildId}); no build stamp, so not compared with the sources`,
      details: { root, buildId, stamp: null },
    });
  }
  // The stamp hashes every source file: a child process reads them, not the studio's event loop.
  const run = await runProgram(process.execPath, [stamper], { timeoutMs: 60_000, cwd: root });
  const current = run.code === 0 ? run.stdout.trim() : undefined;
  if (!current) {
    return part({
      ...base,
      status: "degraded",
      summary: `built (${buildId}); could not compare it with the sources: scripts/build-stamp.mjs ${run.failure ?? `exited with ${run.code}`}`,
      fix: BUILD_FIX,
      details: { root, buildId, stamp },
    });
  }
  if (current !== stamp) {
    return part({
      ...base,
      status: "missing",
      summary: `out of date: .next was built from other sources than this checkout's (its stamp ${stamp.slice(0, 12)}…, the sources' ${current.slice(0, 12)}…), so the studio would serve old pages`,
      fix: "rebuild: `npm run setup` (or `npm run build`), then restart the studio",
      details: { root, buildId, stamp, sources: current },
    });
  }
  return part({
    ...base,
    status: "ok",
    summary: `built (${buildId}) from these sources`,
    details: { root, buildId, stamp },
  });
}
