import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../lib/db/open";
import { createRun } from "../lib/runs/create";
import { storeFor } from "../lib/store";
import { projectRoot } from "../lib/paths";
import type { DoctorReport, Part } from "../lib/doctor";
import { startScriptedServer, type ScriptedServer } from "../e2e/fixtures/scripted-model-server";

// `colbench doctor` as a person runs it, beside a process that owns the embedded database (as a
// studio would) holding two runs: one against a live model server, one against a dead address.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-doctor-"));
let owner: Database;
let models: ScriptedServer;

beforeAll(async () => {
  models = await startScriptedServer();
  owner = await openDatabase({ pgliteDir: path.join(dataDir, "db"), url: "", command: "doctor.test owner" });
  const store = storeFor(owner.prisma);
  await store.tasks.seedSamplesIfEmpty();
  const common = { benchmark: "backend" as const, selector: "all", limit: 1, promptFiles: {} };
  await createRun(store, {
    ...common,
    name: "live",
    agent: { baseUrl: models.url, model: "ask-then-answer" },
    simulator: { baseUrl: models.url, model: "simulator" },
  });
  await createRun(store, {
    ...common,
    name: "gone",
    agent: { baseUrl: "http://127.0.0.1:9/v1", model: "m" },
    simulator: { baseUrl: models.url, model: "not-served" },
  });
});

afterAll(async () => {
  await owner?.close();
  await models?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The real binary, without blocking this process: it serves the database the doctor reads. */
function doctor(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(projectRoot, "cli", "bin.mjs"), "doctor", ...args], {
    cwd: projectRoot,
    env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

const byId = (report: DoctorReport, id: string): Part[] => report.parts.filter((p) => p.id === id);

describe("colbench doctor", () => {
  let report: DoctorReport;

  it("prints a stable JSON report: version, verdict, and one part per line with its fields", async () => {
    const { code, stdout, stderr } = await doctor(["--json"]);
    report = JSON.parse(stdout) as DoctorReport;
    // A checkout without a (current) production build fails on that part alone; every other required part is here.
    const built = byId(report, "build")[0]!.status !== "missing";
    expect(code, stderr).toBe(built ? 0 : 1);
    expect(report.version).toBe(1);
    expect(report.ok).toBe(built);
    expect(report.parts.filter((p) => p.required && p.status === "missing" && p.id !== "build")).toEqual([]);
    expect(Number.isNaN(Date.parse(report.at))).toBe(false);
    expect(report.tookMs).toBeGreaterThan(0);
    for (const p of report.parts) {
      expect(Object.keys(p).sort()).toEqual(
        expect.arrayContaining(["details", "id", "name", "required", "status", "summary"]),
      );
      expect(["ok", "missing", "degraded"]).toContain(p.status);
      expect(typeof p.summary).toBe("string");
      if (p.status !== "ok") expect(p.fix, p.id).toEqual(expect.any(String));
    }
    expect([...new Set(report.parts.map((p) => p.id))]).toEqual([
      "node",
      "packages",
      "build",
      "data-folder",
      "chromium",
      "firefox",
      "python",
      "numpy",
      "sandbox",
      "postgresql",
      "database",
      "webgpu",
      "clip",
      "model-server",
      "render-cache",
    ]);
  });

  it("says which CLIP the next frontend run would use and why: offline with an empty cache, the weight-free default-v2 and how to get CLIP", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-doctor-hf-"));
    const { stdout } = await doctor(["--json"], { HF_HUB_OFFLINE: "1", HF_HUB_CACHE: empty, COLBENCH_CLIP: "" });
    fs.rmSync(empty, { recursive: true, force: true });
    const [clip] = byId(JSON.parse(stdout) as DoctorReport, "clip");
    expect(clip).toMatchObject({ status: "degraded", required: false, details: { embedder: "default-v2" } });
    expect(clip!.summary).toMatch(
      /^the next frontend run uses the weight-free default-v2, because CLIP ViT-B\/32 can be neither found nor fetched/,
    );
    expect(clip!.fix).toContain("colbench models download openai/clip-vit-base-patch32");
  });

  it("finds every part this machine has: Node, Chromium cut off from the network, Python, numpy and the sandbox, PostgreSQL", () => {
    for (const id of [
      "node",
      "packages",
      "data-folder",
      "chromium",
      "python",
      "numpy",
      "sandbox",
      "postgresql",
      "render-cache",
    ])
      expect(byId(report, id)[0]!.status, id).toBe("ok");
    expect(byId(report, "chromium")[0]!.details).toMatchObject({
      path: "/usr/bin/chromium",
      network: expect.stringMatching(/netns/) as unknown,
    });
    expect(byId(report, "sandbox")[0]!.details).toMatchObject({
      network: expect.stringMatching(/^netns/) as unknown,
      warnings: [],
    });
    // Firefox is optional: reported as it is.
    expect(byId(report, "firefox")[0]!.status).toBe(fs.existsSync("/usr/bin/firefox-esr") ? "ok" : "missing");
  });

  it("names the database's owner process and what it holds", () => {
    const [database] = byId(report, "database");
    expect(database!.status).toBe("ok");
    expect(database!.details).toMatchObject({
      kind: "pglite",
      role: "client",
      owner: { pid: process.pid, command: "doctor.test owner", state: "serving" },
      migrations: { pending: [] },
      counts: { runs: 2 },
    });
    expect(database!.summary).toContain(`owner: process ${process.pid} (doctor.test owner)`);
  });

  it("asks each model server the saved runs name for its models", () => {
    const servers = byId(report, "model-server");
    const live = servers.find((p) => p.details.baseUrl === models.url)!;
    expect(live.status).toBe("degraded"); // the "gone" run asks it for a model it does not serve
    expect(live.summary).toMatch(/reachable; lists .*ask-then-answer/);
    expect(live.summary).toContain("not listed: not-served");
    const dead = servers.find((p) => p.details.baseUrl === "http://127.0.0.1:9/v1")!;
    expect(dead).toMatchObject({ status: "missing", required: false, details: { reachable: false, runs: ["gone"] } });
  });

  it("reports WebGPU as it is: an adapter through Dawn, or none and why", () => {
    const [webgpu] = byId(report, "webgpu");
    expect(webgpu!.required).toBe(false);
    if (webgpu!.status === "missing") {
      expect(webgpu!.summary).toMatch(/^none, because /);
      expect((webgpu!.details.failures as string[]).length).toBeGreaterThan(0);
    } else {
      expect(webgpu!.details).toMatchObject({
        features: expect.any(Array) as unknown,
        how: expect.stringMatching(/^dawn:/) as unknown,
      });
      expect(webgpu!.status === "degraded").toBe(/software/.test(webgpu!.summary));
    }
  });

  it("exits 1 naming the database when DATABASE_URL reaches no server, not 'migrations pending'", async () => {
    const { code, stdout } = await doctor([], { DATABASE_URL: "postgresql://colbench:secret@127.0.0.1:9/colbench" });
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^missing\s+Database\s+cannot reach the PostgreSQL server postgresql:\/\/colbench:\*\*\*@127\.0\.0\.1:9\/colbench \(DATABASE_URL\)/m,
    );
    expect(stdout).not.toContain("secret");
    expect(stdout.trim().split("\n").pop()).toMatch(/^The studio cannot work without: .*Database/);
  });

  it("exits 1 naming the data folder when it cannot be created", async () => {
    // Permission bits do not stop root; sysfs refuses every new folder.
    const parent = process.getuid?.() === 0 ? "/sys" : fs.mkdtempSync(path.join(os.tmpdir(), "colbench-ro-"));
    if (parent !== "/sys") fs.chmodSync(parent, 0o555);
    const { code, stdout } = await doctor([], { COLBENCH_DATA: path.join(parent, "data") });
    if (parent !== "/sys") fs.rmSync(parent, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(stdout).toMatch(
      new RegExp(`^missing\\s+Data folder\\s+${parent}/data does not exist and cannot be created`, "m"),
    );
    expect(stdout.trim().split("\n").pop()).toMatch(/^The studio cannot work without: .*Data folder/);
  });

  it("names Chromium with its fix and exits 1 when Chromium is missing", async () => {
    const { code, stdout } = await doctor([], { COLBENCH_CHROMIUM: "/nonexistent/chromium" });
    expect(code).toBe(1);
    expect(stdout).toMatch(/^missing\s+Chromium\s+\/nonexistent\/chromium not found/m);
    expect(stdout).toMatch(
      /fix: run `npm run setup` \(installs Debian's chromium with apt-get\), or set COLBENCH_CHROMIUM/,
    );
    expect(stdout.trim().split("\n").pop()).toMatch(
      /^The studio cannot work without: (Studio build, )?Chromium \(see the fixes above\)\.$/,
    );
  });
});
