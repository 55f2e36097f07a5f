import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot, sharedColbenchDir } from "../lib/paths";

// The real `colbench` binary, as a user runs it, on a throwaway data folder.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-cli-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function colbench(...args: string[]) {
  const result = spawnSync(process.execPath, [path.join(projectRoot, "cli", "bin.mjs"), ...args], {
    cwd: projectRoot,
    env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "" },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const lastJson = (stdout: string) => JSON.parse(stdout.trim().split("\n").pop()!) as unknown;

describe("colbench CLI", () => {
  it.each([["serve"], ["import"], ["db", "migrate"], ["tasks", "list"]])("explains `%s` with --help", (...command) => {
    const { code, stdout } = colbench(...command, "--help");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: colbench /);
  });

  it("migrates an empty data folder, then reports it up to date", () => {
    const first = colbench("db", "migrate");
    expect(first.code).toBe(0);
    const migrations = fs
      .readdirSync(path.join(projectRoot, "prisma", "migrations"))
      .filter((name) => /^\d+_/.test(name));
    expect(first.stdout).toContain(`applied ${migrations.length} migration(s) to pglite`);
    const second = colbench("db", "migrate");
    expect(second.stdout).toMatch(/is up to date/);
  });

  it("imports the good lines of a broken file, reports each bad one and exits non-zero", () => {
    const file = path.join(projectRoot, "lib", "store", "fixtures", "broken-backend.jsonl");
    const { code, stdout, stderr } = colbench("import", file, "--benchmark", "backend", "--split", "train");
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(5);
    expect(stderr).toContain(`${file}:2: test_cases: must hold at least one test`);
    expect(stderr).toContain(`${file}:7: test_cases.test2:`);
    expect(lastJson(stdout)).toMatchObject({ lines: 7, inserted: 2, existing: 0, bad: 5 });
  });

  it("rejects an unknown benchmark and a missing file with a clear message", () => {
    const wrong = colbench("import", "x.jsonl", "--benchmark", "mobile");
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/mobile.*invalid|Allowed choices/i);
    const missing = colbench("import", "no-such-file.jsonl", "--benchmark", "backend");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no-such-file.jsonl: no such file");
  });

  it("lists tasks with filters", () => {
    const { code, stdout } = colbench("tasks", "list", "--split", "train", "--json");
    expect(code).toBe(0);
    const rows = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { split: string; benchmark: string });
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.split === "train" && row.benchmark === "backend")).toBe(true);
  });
});

const shared = sharedColbenchDir();
// The official test sets live outside the repository (../shared/colbench); without them there is nothing to import.
describe.skipIf(!fs.existsSync(path.join(shared, "backend_test.jsonl")))(
  "importing the official ColBench test sets",
  () => {
    it("imports 1000 backend tasks, none again, and 1000 frontend tasks", () => {
      const backend = colbench(
        "import",
        path.join(shared, "backend_test.jsonl"),
        "--benchmark",
        "backend",
        "--split",
        "test",
      );
      expect(backend.code).toBe(0);
      expect(lastJson(backend.stdout)).toMatchObject({ lines: 1000, inserted: 1000, bad: 0 });
      const again = colbench(
        "import",
        path.join(shared, "backend_test.jsonl"),
        "--benchmark",
        "backend",
        "--split",
        "test",
      );
      expect(lastJson(again.stdout)).toMatchObject({ inserted: 0, existing: 1000 });
      const frontend = colbench("import", path.join(shared, "frontend_test.jsonl"), "--benchmark", "frontend");
      expect(lastJson(frontend.stdout)).toMatchObject({ lines: 1000, inserted: 1000, bad: 0 });
      const listed = colbench("tasks", "list", "--benchmark", "frontend", "--split", "test", "--page-size", "3");
      expect(listed.stdout).toMatch(/page 1 of 334 \(1000 tasks\)/);
    });
  },
);
