// Prints a hash of everything `next build` reads from this checkout (pages, components, lib, the
// configuration, the schema and the lock file), so setup and `npm test` can skip a build that would
// change nothing.
// Tests, workers and the CLI are read at run time, not built: editing them needs no rebuild.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const FOLDERS = ["app", "components", "lib"];
const FILES = [
  "next.config.ts",
  "proxy.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
  "prisma/schema.prisma",
];
const SKIP = /(\.test\.tsx?$|\/generated\/|\/__pycache__\/|\/testing\/|\/fixtures\/)/;

const files = [...FILES];
const walk = (dir) => {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(rel);
    else if (entry.isFile() && !SKIP.test(rel)) files.push(rel);
  }
};
for (const dir of FOLDERS) if (fs.existsSync(path.join(root, dir))) walk(dir);

const hash = createHash("sha256");
for (const rel of files.sort()) {
  const full = path.join(root, rel);
  if (!fs.existsSync(full)) continue;
  hash.update(rel).update("\0").update(fs.readFileSync(full)).update("\0");
}
hash.update(process.versions.node);
const stamp = hash.digest("hex");

// --current: exit 0 when .next holds a build made from these sources, 1 otherwise.
// --record: mark the build in .next as made from them (after a build succeeded).
const stampFile = path.join(root, ".next", "colbench-build-stamp");
const mode = process.argv[2];
if (mode === "--current") {
  const recorded = fs.existsSync(path.join(root, ".next", "BUILD_ID")) && fs.existsSync(stampFile);
  process.exit(recorded && fs.readFileSync(stampFile, "utf8").trim() === stamp ? 0 : 1);
} else if (mode === "--record") {
  fs.writeFileSync(stampFile, stamp + "\n");
} else {
  process.stdout.write(stamp + "\n");
}
