import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../lib/paths";

// `colbench doctor` is the command for when the install is broken: in a copy of the checkout with no
// generated database client (a failed postinstall), or with no node_modules at all, it prints report
// lines with their fix and exits 1, never a stack trace.

const clones: string[] = [];

function clone(options: { generated: boolean; nodeModules: boolean; without?: string }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-clone-"));
  clones.push(dir);
  for (const entry of ["cli", "lib", "package.json", "tsconfig.json"]) {
    fs.cpSync(path.join(projectRoot, entry), path.join(dir, entry), {
      recursive: true,
      filter: (src) => options.generated || !src.startsWith(path.join(projectRoot, "lib", "db", "generated")),
    });
  }
  if (options.nodeModules && options.without) {
    // Every package linked but one: node_modules itself is left whole.
    const [scope, name] = options.without.includes("/") ? options.without.split("/") : [undefined, options.without];
    const modules = path.join(dir, "node_modules");
    fs.mkdirSync(modules);
    for (const entry of fs.readdirSync(path.join(projectRoot, "node_modules"))) {
      if (entry === scope) continue;
      if (entry !== name) fs.symlinkSync(path.join(projectRoot, "node_modules", entry), path.join(modules, entry));
    }
    if (scope) {
      fs.mkdirSync(path.join(modules, scope));
      for (const entry of fs.readdirSync(path.join(projectRoot, "node_modules", scope))) {
        if (entry !== name)
          fs.symlinkSync(path.join(projectRoot, "node_modules", scope, entry), path.join(modules, scope, entry));
      }
    }
  } else if (options.nodeModules)
    fs.symlinkSync(path.join(projectRoot, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}

function doctor(dir: string, args: string[] = []) {
  return spawnSync(process.execPath, [path.join(dir, "cli", "bin.mjs"), "doctor", ...args], {
    cwd: dir,
    env: { ...process.env, COLBENCH_DATA: path.join(dir, "data"), DATABASE_URL: "", COLBENCH_DEBUG: "" },
    encoding: "utf8",
    timeout: 120_000,
  });
}

const stackTrace = /^\s+at .+:\d+:\d+\)?$/m;

afterAll(() => {
  for (const dir of clones) fs.rmSync(dir, { recursive: true, force: true });
});

describe("colbench doctor in a broken checkout", () => {
  it("without the generated database client: a line with the fix, exit 1, no stack trace", { timeout: 180_000 }, () => {
    const dir = clone({ generated: false, nodeModules: true });
    const result = doctor(dir);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^ok\s+Node\.js\s+v\d+/m);
    expect(result.stdout).toMatch(
      /^missing\s+Database client\s+the generated Prisma client \(lib\/db\/generated\) is missing/m,
    );
    expect(result.stdout).toContain("fix: run `npm run prisma:generate` (or `npm ci`, which runs it)");
    expect(result.stdout.trim().split("\n").pop()).toMatch(/^The studio cannot work without: Database client/);
    expect(result.stdout + result.stderr).not.toMatch(stackTrace);
    const json = JSON.parse(doctor(dir, ["--json"]).stdout) as {
      ok: boolean;
      parts: Array<{ id: string; status: string; fix?: string }>;
    };
    expect(json.ok).toBe(false);
    expect(json.parts.find((p) => p.id === "install")).toMatchObject({
      status: "missing",
      fix: expect.stringContaining("prisma:generate") as unknown,
    });
  });

  it("without @prisma/client: names that package and `npm ci`, not the generated client", { timeout: 180_000 }, () => {
    const result = doctor(clone({ generated: true, nodeModules: true, without: "@prisma/client" }));
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^missing\s+Node packages\s+the package @prisma\/client is not installed/m);
    expect(result.stdout).toContain("fix: run `npm ci` in");
    expect(result.stdout).not.toContain("lib/db/generated");
  });

  it("without node_modules: names the missing packages and `npm ci`", { timeout: 60_000 }, () => {
    const dir = clone({ generated: true, nodeModules: false });
    const result = doctor(dir);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      /^missing\s+Node packages\s+the package tsx is not installed \(node_modules is missing or incomplete\)/m,
    );
    expect(result.stdout).toContain("fix: run `npm ci` in");
    expect(result.stdout + result.stderr).not.toMatch(stackTrace);
  });
});
