// The first start installs only what building and serving the studio needs; the rest follows once the
// first page is served (scripts/setup.sh). This writes that first set as a package.json and lock of its
// own into a staging folder, cut from the project's own lock (same versions, same places in the tree),
// for `npm ci` to install there.
//
//   node scripts/first-page-deps.mjs STAGING_DIR    prints "<kept> <all>" (lock entries)
//
// Later: every devDependency (tests, lint, format; what the build reads is in dependencies) and the
// dependencies named in AFTER_FIRST_PAGE, with whatever only they need.
import fs from "node:fs";
import path from "node:path";

/** Dependencies no page needs in order to be drawn; each is loaded where its feature starts. */
export const AFTER_FIRST_PAGE = {
  // CLIP on the CPU for frontend scores; the package carries every platform's binaries (93 MB packed).
  "onnxruntime-node": "frontend scores",
  // CLIP's weights in ONNX form, read with the runtime above.
  "onnx-proto": "frontend scores",
  // Dawn in Node (critic ranking on a GPU, coach mode's live advantages); every platform's (49 MB packed).
  webgpu: "WebGPU in Node",
  // The render worker's browser driver (sharp, its picture tool, comes with Next.js anyway).
  "puppeteer-core": "renders",
};

const root = path.resolve(import.meta.dirname, "..");

/** Where Node would find `name` when required from the lock entry at `from` ("" is the project). */
function resolveIn(packages, from, name) {
  let dir = from;
  for (;;) {
    const key = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    if (packages[key]) return key;
    if (!dir) return null;
    const cut = dir.lastIndexOf("/node_modules/");
    dir = cut < 0 ? "" : dir.slice(0, cut);
  }
}

/** Lock entries reachable from `roots` through dependencies, optional ones and required peers. */
export function closure(packages, roots) {
  const kept = new Set();
  const todo = roots.map((name) => resolveIn(packages, "", name));
  while (todo.length > 0) {
    const key = todo.pop();
    if (!key || kept.has(key)) continue;
    kept.add(key);
    const entry = packages[key];
    const optionalPeers = entry.peerDependenciesMeta ?? {};
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers[name]?.optional),
    ];
    for (const name of names) todo.push(resolveIn(packages, key, name));
  }
  return kept;
}

export function firstPageManifest(manifest, lock) {
  const dependencies = Object.fromEntries(
    Object.entries(manifest.dependencies).filter(([name]) => !(name in AFTER_FIRST_PAGE)),
  );
  const kept = closure(lock.packages, Object.keys(dependencies));
  const rootEntry = { ...lock.packages[""], dependencies };
  delete rootEntry.devDependencies;
  const packages = { "": rootEntry };
  for (const [key, entry] of Object.entries(lock.packages)) if (key && kept.has(key)) packages[key] = entry;
  // No install scripts of the project's own run in the staging folder (the Prisma client is generated
  // in the project afterwards), and nothing of its own is published from there.
  const { scripts: _scripts, devDependencies: _dev, bin: _bin, ...rest } = manifest;
  return {
    manifest: { ...rest, dependencies },
    lock: { ...lock, packages },
    counts: { kept: kept.size, all: Object.keys(lock.packages).length - 1 },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const staging = process.argv[2];
  if (!staging) {
    console.error("usage: node scripts/first-page-deps.mjs STAGING_DIR");
    process.exit(2);
  }
  const read = (file) => JSON.parse(fs.readFileSync(path.join(root, file), "utf8"));
  const { manifest, lock, counts } = firstPageManifest(read("package.json"), read("package-lock.json"));
  fs.mkdirSync(staging, { recursive: true });
  fs.writeFileSync(path.join(staging, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(path.join(staging, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`${counts.kept} ${counts.all}`);
}
