import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { monacoFile, monacoRoot } from "./monaco-files";

describe("monacoFile", () => {
  it("serves the editor's loader and its entry point from the installed package", async () => {
    const loader = await monacoFile(["loader.js"]);
    expect(loader.ok && loader.type).toBe("text/javascript; charset=utf-8");
    const main = await monacoFile(["editor", "editor.main.js"]);
    expect(main.ok && main.body.length).toBeGreaterThan(1000);
    expect(fs.existsSync(path.join(monacoRoot(), "editor", "editor.main.css"))).toBe(true);
  });

  it("reads nothing outside the folder, whatever the path or link says", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-monaco-"));
    const vs = path.join(root, "vs");
    fs.mkdirSync(vs);
    fs.writeFileSync(path.join(root, "secret.js"), "secret");
    fs.writeFileSync(path.join(vs, "ok.js"), "ok");
    fs.symlinkSync(path.join(root, "secret.js"), path.join(vs, "link.js"));
    try {
      expect(await monacoFile(["ok.js"], vs)).toMatchObject({ ok: true });
      for (const parts of [
        ["..", "secret.js"],
        ["a", "..", "..", "secret.js"],
        ["link.js"],
        ["ok.ts"],
        ["../secret.js"],
        ["..%2fsecret.js"],
        [""],
        ["ok.js\0"],
      ]) {
        expect(await monacoFile(parts, vs), parts.join("/")).toMatchObject({ ok: false });
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
