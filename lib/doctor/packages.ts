import fs from "node:fs/promises";
import path from "node:path";
import { checkoutFile } from "./files";
import { part, type Part } from "./types";

/** Whether `name` resolves from `root` the way Node finds packages: node_modules here, then in each folder above. */
export async function installedFrom(root: string, name: string): Promise<boolean> {
  for (let dir = root; ; dir = path.dirname(dir)) {
    if (
      await fs.access(/*turbopackIgnore: true*/ path.join(dir, "node_modules", name, "package.json")).then(
        () => true,
        () => false,
      )
    )
      return true;
    if (path.dirname(dir) === dir) return false;
  }
}

/**
 * Every package package.json says the studio runs with. Many load only when a feature is first
 * used (PGlite on the first embedded open, sharp on the first render), so a missing one would
 * otherwise surface as a crash mid-run rather than here. Type-only packages are not loaded.
 */
export async function checkPackages(
  options: { root?: string; installed?: (name: string) => Promise<boolean> } = {},
): Promise<Part> {
  const root = options.root ?? checkoutFile();
  const installed = options.installed ?? ((name: string) => installedFrom(root, name));
  const base = { id: "packages", name: "Node packages", required: true };
  let manifest: { dependencies?: Record<string, string> };
  try {
    manifest = JSON.parse(await fs.readFile(/*turbopackIgnore: true*/ path.join(root, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
  } catch (error) {
    return part({
      ...base,
      status: "missing",
      summary: `cannot read ${path.join(root, "package.json")}: ${(error as Error).message}`,
      fix: "run `git status` and restore package.json, then `npm ci`",
      details: { root },
    });
  }
  const names = Object.keys(manifest.dependencies ?? {}).filter((name) => !name.startsWith("@types/"));
  const present = await Promise.all(names.map(installed));
  const missing = names.filter((_, i) => !present[i]);
  // A first start installs the first page's packages, then the rest in the background (scripts/setup.sh).
  const firstPageOnly = await fs
    .access(/*turbopackIgnore: true*/ path.join(root, "node_modules", ".colbench-first-page-only"))
    .then(
      () => true,
      () => false,
    );
  if (missing.length && firstPageOnly) {
    return part({
      ...base,
      status: "degraded",
      summary: `not installed yet: ${missing.join(", ")} (the first start installed what the first page needs; ${names.length - missing.length} of ${names.length} found)`,
      fix: "`npm run studio` installs them in the background and prints a line when done; `npm run setup` waits for it or installs them",
      details: { root, missing, checked: names.length, firstPageOnly },
    });
  }
  if (missing.length) {
    return part({
      ...base,
      status: "missing",
      summary: `not installed: ${missing.join(", ")} (node_modules is missing or incomplete; ${names.length - missing.length} of ${names.length} found)`,
      fix: `run \`npm ci\` in ${root}`,
      details: { root, missing, checked: names.length },
    });
  }
  return part({
    ...base,
    status: "ok",
    summary: `all ${names.length} installed`,
    details: { root, missing: [], checked: names.length },
  });
}
