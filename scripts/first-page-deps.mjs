// The first start installs only what building and serving the studio needs; the rest follows once the
// first page is served (scripts/setup.sh). This writes that first set, cut from the project's own lock
// (same versions, same places in the tree), as PARTS package.json + lock pairs of their own, each closed
// under its dependencies, for as many `npm ci` side by side: npm unpacks on one thread, and two halves
// at once took 22-28 s where the whole took 33 on 2 cores (a fresh Debian root, 2026-11-28).
//
//   node scripts/first-page-deps.mjs STAGING_DIR [PARTS]   writes STAGING_DIR/part-1..; prints "<kept> <all>"
//   node scripts/first-page-deps.mjs --merge STAGING_DIR   one node_modules from the parts', at STAGING_DIR/node_modules
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

/**
 * The first set as `parts` manifests and locks, each closed under its dependencies. The lock holds no
 * sizes, so the roots are dealt out by how many entries each adds to a part (what parts share is
 * unpacked by each); on this lock that splits the files about 19 000 to 17 000.
 */
export function splitFirstPage(first, parts) {
  const { packages } = first.lock;
  const roots = Object.keys(first.manifest.dependencies);
  const closures = new Map(roots.map((name) => [name, closure(packages, [name])]));
  roots.sort((a, b) => closures.get(b).size - closures.get(a).size || (a < b ? -1 : 1));
  const kept = Array.from({ length: parts }, () => ({ roots: [], keys: new Set() }));
  for (const name of roots) {
    const grown = kept.map((part) => new Set([...part.keys, ...closures.get(name)]).size);
    const part = kept[grown.indexOf(Math.min(...grown))];
    part.roots.push(name);
    for (const key of closures.get(name)) part.keys.add(key);
  }
  return kept
    .filter((part) => part.roots.length > 0)
    .map((part) => {
      const dependencies = Object.fromEntries(part.roots.map((name) => [name, first.manifest.dependencies[name]]));
      const lockPackages = { "": { ...packages[""], dependencies } };
      for (const key of Object.keys(packages)) if (key && part.keys.has(key)) lockPackages[key] = packages[key];
      return { manifest: { ...first.manifest, dependencies }, lock: { ...first.lock, packages: lockPackages } };
    });
}

/** Moves every part's packages into part-1's node_modules (a package two parts share is the same files), then that to `staging`/node_modules. */
export function mergeParts(staging) {
  const parts = fs
    .readdirSync(staging)
    .filter((name) => /^part-\d+$/.test(name))
    .sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)))
    .map((name) => path.join(staging, name, "node_modules"));
  const [into, ...others] = parts;
  // npm's record of what it installed: the union of the parts', written last so that npm trusts it.
  const hidden = JSON.parse(fs.readFileSync(path.join(into, ".package-lock.json"), "utf8"));
  const moveMissing = (from, to) => {
    for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
      if (entry.name === ".package-lock.json") continue;
      const source = path.join(from, entry.name);
      const target = path.join(to, entry.name);
      const scopeOrBins = entry.isDirectory() && (entry.name.startsWith("@") || entry.name === ".bin");
      if (scopeOrBins && fs.existsSync(target)) moveMissing(source, target);
      else if (!fs.existsSync(target)) fs.renameSync(source, target);
    }
  };
  for (const other of others) {
    const theirs = JSON.parse(fs.readFileSync(path.join(other, ".package-lock.json"), "utf8"));
    Object.assign(hidden.packages, theirs.packages);
    moveMissing(other, into);
  }
  fs.writeFileSync(path.join(into, ".package-lock.json"), `${JSON.stringify(hidden, null, 2)}\n`);
  fs.renameSync(into, path.join(staging, "node_modules"));
  return Object.keys(hidden.packages).length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [first, second, third] = process.argv.slice(2);
  if (first === "--merge" && second) {
    console.log(mergeParts(second));
    process.exit(0);
  }
  if (!first) {
    console.error("usage: node scripts/first-page-deps.mjs STAGING_DIR [PARTS] | --merge STAGING_DIR");
    process.exit(2);
  }
  const read = (file) => JSON.parse(fs.readFileSync(path.join(root, file), "utf8"));
  const cut = firstPageManifest(read("package.json"), read("package-lock.json"));
  splitFirstPage(cut, Math.max(1, Number(second ?? 1))).forEach((part, i) => {
    const dir = path.join(first, `part-${i + 1}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(part.manifest, null, 2)}\n`);
    fs.writeFileSync(path.join(dir, "package-lock.json"), `${JSON.stringify(part.lock, null, 2)}\n`);
  });
  console.log(`${cut.counts.kept} ${cut.counts.all}`);
}
