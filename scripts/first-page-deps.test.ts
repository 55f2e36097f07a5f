import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AFTER_FIRST_PAGE, closure, firstPageManifest, type Lock, type Manifest } from "./first-page-deps.mjs";

const root = path.resolve(import.meta.dirname, "..");
const read = <T>(file: string) => JSON.parse(fs.readFileSync(path.join(root, file), "utf8")) as T;

describe("the first page's packages (scripts/first-page-deps.mjs)", () => {
  const manifest = read<Manifest>("package.json");
  const lock = read<Lock>("package-lock.json");
  const first = firstPageManifest(manifest, lock);
  const kept = new Set(Object.keys(first.lock.packages).filter(Boolean));

  it("leaves out the dev tools and the features named for later, with what only they need", () => {
    for (const name of Object.keys(AFTER_FIRST_PAGE)) expect(kept.has(`node_modules/${name}`)).toBe(false);
    for (const name of ["vitest", "@playwright/test", "eslint", "prettier"])
      expect(kept.has(`node_modules/${name}`)).toBe(false);
    // onnxruntime-node's own dependency on onnxruntime-common goes with it.
    expect(kept.has("node_modules/onnxruntime-common")).toBe(false);
    expect(first.manifest.devDependencies).toBeUndefined();
    expect(first.manifest.scripts).toBeUndefined();
  });

  it("keeps what the build and the server read, at the lock's versions and places", () => {
    for (const name of [
      "next",
      "react",
      "@prisma/client",
      "prisma",
      "typescript",
      "@types/react",
      "@types/node",
      "tailwindcss",
    ]) {
      const key = `node_modules/${name}`;
      expect(first.lock.packages[key], key).toEqual(lock.packages[key]);
    }
  });

  it("is closed: every dependency of a kept package is kept (where npm would find it)", () => {
    const again = closure(first.lock.packages, Object.keys(first.manifest.dependencies));
    expect([...again].sort()).toEqual([...kept].sort());
  });

  it("the lock's root entry names the same dependencies as the manifest (npm ci checks that)", () => {
    expect(first.lock.packages[""]?.dependencies).toEqual(first.manifest.dependencies);
  });
});
