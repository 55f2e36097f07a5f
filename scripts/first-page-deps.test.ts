import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import os from "node:os";
import {
  AFTER_FIRST_PAGE,
  closure,
  firstPageManifest,
  mergeParts,
  splitFirstPage,
  type Lock,
  type Manifest,
} from "./first-page-deps.mjs";

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

  it("splits into closed parts whose union is the first set, each root in one part", () => {
    const parts = splitFirstPage(first, 2);
    expect(parts).toHaveLength(2);
    const union = new Set<string>();
    for (const part of parts) {
      const keys = Object.keys(part.lock.packages).filter(Boolean);
      expect(closure(part.lock.packages, Object.keys(part.manifest.dependencies))).toEqual(new Set(keys));
      expect(part.lock.packages[""]?.dependencies).toEqual(part.manifest.dependencies);
      keys.forEach((key) => union.add(key));
    }
    expect([...union].sort()).toEqual([...kept].sort());
    const roots = parts.flatMap((part) => Object.keys(part.manifest.dependencies)).sort();
    expect(roots).toEqual(Object.keys(first.manifest.dependencies).sort());
  });

  it("merges the parts' node_modules: every package once, bins and scopes joined, npm's record the union", () => {
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), "first-page-"));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
      fs.writeFileSync(path.join(staging, file), text);
    };
    const record = (keys: string[]) => JSON.stringify({ packages: Object.fromEntries(keys.map((k) => [k, {}])) });
    write("part-1/node_modules/a/package.json", "a");
    write("part-1/node_modules/shared/package.json", "1");
    write("part-1/node_modules/@s/x/package.json", "x");
    write("part-1/node_modules/.bin/a", "a");
    write(
      "part-1/node_modules/.package-lock.json",
      record(["node_modules/a", "node_modules/shared", "node_modules/@s/x"]),
    );
    write("part-2/node_modules/b/node_modules/c/package.json", "c");
    write("part-2/node_modules/shared/package.json", "2");
    write("part-2/node_modules/@s/y/package.json", "y");
    write("part-2/node_modules/.bin/b", "b");
    write(
      "part-2/node_modules/.package-lock.json",
      record(["node_modules/b", "node_modules/b/node_modules/c", "node_modules/shared", "node_modules/@s/y"]),
    );
    expect(mergeParts(staging)).toBe(6);
    const merged = path.join(staging, "node_modules");
    const read = (file: string) => fs.readFileSync(path.join(merged, file), "utf8");
    expect([
      read("a/package.json"),
      read("b/node_modules/c/package.json"),
      read("@s/x/package.json"),
      read("@s/y/package.json"),
    ]).toEqual(["a", "c", "x", "y"]);
    expect(read("shared/package.json")).toBe("1");
    expect(fs.readdirSync(path.join(merged, ".bin")).sort()).toEqual(["a", "b"]);
    expect(Object.keys((JSON.parse(read(".package-lock.json")) as Lock).packages)).toHaveLength(6);
    fs.rmSync(staging, { recursive: true, force: true });
  });
});
