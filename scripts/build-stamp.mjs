// Prints a hash of everything `next build` reads from this checkout (pages, components, lib, the
// configuration, the schema and the lock file), so setup can skip a build that would change nothing.
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
process.stdout.write(hash.digest("hex") + "\n");
