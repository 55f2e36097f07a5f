// Gathers what bench/gpu/run.py needs on a GPU machine that has Python and PyTorch but no Node, no
// node_modules and no Vulkan loader, into one ignored folder the device tool's `carry` takes whole
// (64 MiB in all): the bundles, this Node compressed, `webgpu`'s loader and dawn.node (compressed; not
// the 132 MB package), Debian's Vulkan loader and GL dispatch debs, and real screenshots as CLIP's
// 224x224 crops. Steps already done are kept (delete the folder to redo them).
//
//   npx tsx bench/gpu/prepare.ts [--out .dev/gpu] [--screenshots 100]
//   npx tsx bench/gpu/prepare.ts --smoke [--out .dev/gpu-smoke]    (for run.py --smoke here: bundles and links, seconds)

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { bundleGpuBench, layOutSmokeCarry } from "./bundle";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const argv = process.argv.slice(2);
const option = (name: string, fallback: string) =>
  argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback;
if (argv.includes("--smoke")) {
  const out = path.resolve(ROOT, option("out", ".dev/gpu-smoke"));
  const started = performance.now();
  await layOutSmokeCarry(out);
  console.log(
    `${path.relative(ROOT, out)}: bundles, links to this Node and dawn.node (${((performance.now() - started) / 1000).toFixed(1)} s); now: python3 bench/gpu/run.py --smoke`,
  );
  process.exit(0);
}
const OUT = path.resolve(ROOT, option("out", ".dev/gpu"));
const SCREENSHOTS = Number(option("screenshots", "100"));
/** What Dawn needs on the lent machines beside NVIDIA's driver (stack-facts: without libglvnd the adapter is null). */
const DEBS = ["libvulkan1", "libglvnd0", "libglx0", "libegl1", "libgl1", "libopengl0", "libgles2"];
const CARRY_LIMIT = 64 * 1024 * 1024;

const step = async (what: string, done: boolean, run: () => unknown) => {
  const started = performance.now();
  if (done) return console.log(`${what}: kept`);
  await run();
  console.log(`${what}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
};
const xz = (from: string, to: string) =>
  fs.writeFileSync(to, execFileSync("xz", ["-T0", "-6", "-c", from], { maxBuffer: 1 << 30 }));

fs.mkdirSync(OUT, { recursive: true });
await step("bundles", false, () => bundleGpuBench(path.join(OUT, "bundle")));

const nodeStamp = path.join(OUT, "node.version");
await step(
  `node ${process.version} (xz)`,
  fs.existsSync(nodeStamp) && fs.readFileSync(nodeStamp, "utf8") === process.version,
  () => {
    xz(process.execPath, path.join(OUT, "node.xz"));
    fs.writeFileSync(nodeStamp, process.version);
  },
);

const webgpu = path.join(ROOT, "node_modules", "webgpu");
const webgpuOut = path.join(OUT, "webgpu");
const webgpuVersion = (JSON.parse(fs.readFileSync(path.join(webgpu, "package.json"), "utf8")) as { version: string })
  .version;
await step(
  `webgpu ${webgpuVersion}: index.js, package.json, dawn.node (xz)`,
  fs.existsSync(path.join(webgpuOut, "package.json")) &&
    fs.readFileSync(path.join(webgpuOut, "package.json"), "utf8").includes(`"version": "${webgpuVersion}"`),
  () => {
    fs.mkdirSync(webgpuOut, { recursive: true });
    for (const f of ["index.js", "package.json"]) fs.copyFileSync(path.join(webgpu, f), path.join(webgpuOut, f));
    xz(path.join(webgpu, "dist", "linux-x64", "dawn.node"), path.join(webgpuOut, "dawn.node.xz"));
  },
);

const debs = path.join(OUT, "debs");
await step(
  `debs (${DEBS.join(" ")})`,
  DEBS.every((d) => fs.existsSync(debs) && fs.readdirSync(debs).some((f) => f.startsWith(`${d}_`))),
  () => {
    fs.mkdirSync(debs, { recursive: true });
    execFileSync("apt-get", ["download", ...DEBS], { cwd: debs, stdio: ["ignore", "ignore", "inherit"] });
  },
);

const crops = path.join(OUT, "crops.u8.gz");
const cropsStamp = path.join(OUT, "crops.count");
await step(
  `${SCREENSHOTS} screenshots as CLIP crops`,
  fs.existsSync(cropsStamp) && fs.readFileSync(cropsStamp, "utf8") === String(SCREENSHOTS),
  async () => {
    // Rendering needs Chromium and the ColBench targets: imported here only.
    const { renderCrops } = await import("./crops");
    fs.writeFileSync(crops, zlib.gzipSync(await renderCrops(SCREENSHOTS), { level: 6 }));
    fs.writeFileSync(cropsStamp, String(SCREENSHOTS));
  },
);

let total = 0;
const walk = (dir: string): void => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) walk(path.join(dir, e.name));
    else total += fs.statSync(path.join(dir, e.name)).size;
  }
};
walk(OUT);
console.log(`${path.relative(ROOT, OUT)}: ${(total / 2 ** 20).toFixed(1)} MiB (the device tool carries 64 MiB in all)`);
if (total > CARRY_LIMIT)
  throw new Error(
    `${OUT} is ${(total / 2 ** 20).toFixed(1)} MiB: more than the 64 MiB a carry takes (use fewer --screenshots)`,
  );
