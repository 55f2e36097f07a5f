import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../db/open";
import { projectRoot } from "../paths";
import { checkBuild } from "./build";
import { checkDatabase } from "./database";
import { checkDataFolder } from "./data-folder";
import { checkPackages } from "./packages";

// Each setup in which the studio cannot start or work: the part is reported missing (which makes
// `colbench doctor` exit 1), named, with a fix that says what to do.

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-doctor-broken-"));
const savedUrl = process.env.DATABASE_URL;
afterEach(() => {
  if (savedUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = savedUrl;
});
afterAll(() => {
  for (const dir of fs.readdirSync(scratch)) fs.chmodSync(path.join(scratch, dir), 0o755);
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A checkout with the build stamp script and one source file, built (BUILD_ID) when asked. */
function checkout(name: string, build: { id?: string; stamp?: string } = {}): string {
  const root = path.join(scratch, name);
  fs.mkdirSync(path.join(root, "scripts"), { recursive: true });
  fs.mkdirSync(path.join(root, "lib"), { recursive: true });
  fs.copyFileSync(path.join(projectRoot, "scripts", "build-stamp.mjs"), path.join(root, "scripts", "build-stamp.mjs"));
  fs.writeFileSync(path.join(root, "lib", "a.ts"), "export const a = 1;\n");
  if (build.id !== undefined || build.stamp !== undefined) fs.mkdirSync(path.join(root, ".next"));
  if (build.id) fs.writeFileSync(path.join(root, ".next", "BUILD_ID"), build.id);
  if (build.stamp) fs.writeFileSync(path.join(root, ".next", "colbench-build-stamp"), build.stamp + "\n");
  return root;
}

const stampOf = (root: string) =>
  spawnSync(process.execPath, [path.join(root, "scripts", "build-stamp.mjs")], { encoding: "utf8" }).stdout.trim();

describe("the studio build", () => {
  it("missing .next: the build is missing and required, with the command that builds it", async () => {
    const root = checkout("no-next");
    const build = await checkBuild({ root });
    expect(build).toMatchObject({ id: "build", name: "Studio build", status: "missing", required: true });
    expect(build.summary).toMatch(
      /^\.next not found in .*: `colbench serve` .* cannot start without a production build/,
    );
    expect(build.fix).toContain("npm run setup");
  });

  it("a .next without BUILD_ID (an interrupted build) is no build", async () => {
    const build = await checkBuild({ root: checkout("no-build-id", { stamp: "x" }) });
    expect(build).toMatchObject({ status: "missing", required: true });
    expect(build.summary).toMatch(/^\.next\/BUILD_ID not found/);
  });

  it("a build whose stamp differs from the sources' is out of date; once they match it is ok", async () => {
    const root = checkout("stale", { id: "b1", stamp: "0".repeat(64) });
    const stale = await checkBuild({ root });
    expect(stale).toMatchObject({
      status: "missing",
      required: true,
      details: { stamp: "0".repeat(64), sources: stampOf(root) },
    });
    expect(stale.summary).toMatch(/^out of date: \.next was built from other sources than this checkout's/);
    expect(stale.fix).toMatch(/rebuild: `npm run setup`.*restart the studio/);

    fs.writeFileSync(path.join(root, ".next", "colbench-build-stamp"), stampOf(root) + "\n");
    expect(await checkBuild({ root })).toMatchObject({ status: "ok", summary: "built (b1) from these sources" });
    // A source edited after the build makes it stale again.
    fs.writeFileSync(path.join(root, "lib", "a.ts"), "export const a = 2;\n");
    expect((await checkBuild({ root })).status).toBe("missing");
  });

  it("needs no build when the studio compiles pages on demand (serve --dev)", async () => {
    expect(await checkBuild({ root: checkout("dev"), dev: true })).toMatchObject({
      status: "ok",
      details: { dev: true },
    });
  });
});

describe("the database", () => {
  const neverOpened = () => Promise.reject(new Error("a bad URL must be refused before any connection"));

  it("DATABASE_URL that is not a URL: missing, without echoing it (it may hold a password), fix names DATABASE_URL", async () => {
    process.env.DATABASE_URL = "colbench:secret@db-host/colbench";
    const database = await checkDatabase(undefined, neverOpened);
    expect(database).toMatchObject({ id: "database", status: "missing", required: true });
    expect(database.summary).toMatch(/^DATABASE_URL is set but is not a URL/);
    expect(database.summary).not.toContain("secret");
    expect(database.fix).toMatch(/set DATABASE_URL to postgresql:\/\/.*or unset it/);
  });

  it("DATABASE_URL of another kind of database: missing, naming the scheme", async () => {
    process.env.DATABASE_URL = "mysql://root@db-host/colbench";
    expect((await checkDatabase(undefined, neverOpened)).summary).toMatch(
      /^DATABASE_URL is a mysql URL, not postgresql:\/\//,
    );
  });

  it(
    "DATABASE_URL pointing at no server: missing (not 'migrations pending'), naming the server without its password",
    { timeout: 30_000 },
    async () => {
      process.env.DATABASE_URL = "postgresql://colbench:secret@127.0.0.1:9/colbench";
      const database = await checkDatabase(undefined, () => openDatabase({ migrate: false, takeOver: false }));
      expect(database).toMatchObject({
        id: "database",
        status: "missing",
        required: true,
        details: { reachable: false },
      });
      expect(database.summary).toBe(
        "cannot reach the PostgreSQL server postgresql://colbench:***@127.0.0.1:9/colbench (DATABASE_URL): Can't reach database server at 127.0.0.1:9",
      );
      expect(database.fix).toMatch(/^start that server, or correct DATABASE_URL/);
    },
  );
});

describe("the data folder", () => {
  it("writable, or not there yet under a writable folder: ok", async () => {
    expect(await checkDataFolder(scratch)).toMatchObject({ status: "ok", details: { exists: true, writable: true } });
    expect(await checkDataFolder(path.join(scratch, "new", "data"))).toMatchObject({
      status: "ok",
      details: { exists: false, parent: scratch },
    });
    expect(fs.existsSync(path.join(scratch, "new"))).toBe(false);
  });

  it("under a read-only parent: missing and required, naming the folder, the parent and the fix", async () => {
    // Permission bits do not stop root, so as root the parent is sysfs, which refuses every new folder.
    let parent = "/sys";
    if (process.getuid?.() !== 0) {
      parent = path.join(scratch, "read-only");
      fs.mkdirSync(parent);
      fs.chmodSync(parent, 0o555);
    }
    const dir = path.join(parent, "colbench-data");
    const folder = await checkDataFolder(dir);
    expect(folder).toMatchObject({
      id: "data-folder",
      name: "Data folder",
      status: "missing",
      required: true,
      details: { path: dir, writable: false },
    });
    expect(folder.summary).toMatch(
      new RegExp(`^${dir} does not exist and cannot be created: ${parent} is not writable \\(E[A-Z]+\\)$`),
    );
    expect(folder.fix).toContain("COLBENCH_DATA");
  });

  it("a file where the folder should be: missing", async () => {
    const file = path.join(scratch, "a-file");
    fs.writeFileSync(file, "");
    expect(await checkDataFolder(file)).toMatchObject({
      status: "missing",
      summary: `${file} is a file, not a folder`,
    });
  });
});

describe("the packages the studio loads", () => {
  it("names each package package.json lists that node_modules lacks, and `npm ci` (type-only packages are not loaded)", async () => {
    const root = path.join(scratch, "partial-install");
    fs.mkdirSync(path.join(root, "node_modules", "commander"), { recursive: true });
    fs.writeFileSync(path.join(root, "node_modules", "commander", "package.json"), "{}");
    fs.writeFileSync(
      path.join(root, "package.json"),
      JSON.stringify({ dependencies: { commander: "1", "@electric-sql/pglite": "1", "@types/pngjs": "1" } }),
    );
    const packages = await checkPackages({ root });
    expect(packages).toMatchObject({
      id: "packages",
      name: "Node packages",
      status: "missing",
      required: true,
      details: { missing: ["@electric-sql/pglite"], checked: 2 },
    });
    expect(packages.summary).toBe(
      "not installed: @electric-sql/pglite (node_modules is missing or incomplete; 1 of 2 found)",
    );
    expect(packages.fix).toBe(`run \`npm ci\` in ${root}`);
  });

  it("after a first start that installed only the first page's packages: degraded, and says the rest is coming", async () => {
    const root = path.join(scratch, "first-page-install");
    fs.mkdirSync(path.join(root, "node_modules", "commander"), { recursive: true });
    fs.writeFileSync(path.join(root, "node_modules", "commander", "package.json"), "{}");
    fs.writeFileSync(path.join(root, "node_modules", ".colbench-first-page-only"), "390 754\n");
    fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ dependencies: { commander: "1", sharp: "1" } }));
    const packages = await checkPackages({ root });
    expect(packages).toMatchObject({ status: "degraded", details: { missing: ["sharp"], firstPageOnly: true } });
    expect(packages.summary).toMatch(/^not installed yet: sharp \(the first start installed what the first page needs/);
    expect(packages.fix).toMatch(/in the background/);
  });

  it("in this checkout: every package is there, and one the resolver cannot find is named", async () => {
    expect(await checkPackages({ root: projectRoot })).toMatchObject({ status: "ok" });
    const missing = await checkPackages({
      root: projectRoot,
      installed: async (name) => name !== "@electric-sql/pglite" && name !== "@prisma/client",
    });
    expect(missing).toMatchObject({
      status: "missing",
      details: { missing: ["@electric-sql/pglite", "@prisma/client"] },
    });
  });
});
