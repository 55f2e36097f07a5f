import net from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../lib/db/open";
import { projectRoot } from "../lib/paths";
import { runColbench } from "./testing/colbench";
import { startScriptedServer, type ScriptedServer } from "../e2e/fixtures/scripted-model-server";

// `colbench run` as a script sees it (stdout and stderr are pipes): the progress total is the run's,
// a failed episode's reason is in the summary and beside the export, and runs are listed, archived
// and deleted by kind.

const taskFile = path.join(projectRoot, "samples", "backend.jsonl");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-runs-cli-"));
let server: ScriptedServer;
/** The folder held open by the test, as a studio holds it: each command reaches it over its socket instead of booting PGlite again. */
let held: Database | undefined;

const colbench = (args: string[]) => runColbench(dataDir, args);
/** A port on 127.0.0.1 that nothing listens on (a real refused connection, not a fetch "bad port"). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const last = (stdout: string) => JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, unknown>;

beforeAll(async () => {
  const tasks = fs
    .readFileSync(taskFile, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { problem_description: string; ground_truth: string });
  server = await startScriptedServer({
    tasks: tasks.map((t) => ({ problemDescription: t.problem_description, groundTruth: t.ground_truth })),
  });
  expect((await colbench(["import", taskFile, "--benchmark", "backend"])).status).toBe(0);
  held = await openDatabase({ pgliteDir: path.join(dataDir, "db"), url: "" });
}, 60_000);
afterAll(async () => {
  await held?.close();
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("colbench run and runs, through pipes", () => {
  it("counts progress against the run's own total when stderr is not a terminal", { timeout: 60_000 }, async () => {
    const result = await colbench([
      "run",
      "--benchmark",
      "backend",
      "--tasks",
      "ids=1-3",
      "--name",
      "piped",
      "--agent",
      `${server.url}#ask-then-answer`,
      "--simulator",
      `${server.url}#simulator`,
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^3\/3 episodes \| running 0 \| failed 0/m);
    expect(result.stderr).not.toMatch(/\/100 episodes/);
  });

  it("says why an episode failed in the summary and beside the export", { timeout: 90_000 }, async () => {
    const port = await closedPort();
    const result = await colbench([
      "run",
      "--benchmark",
      "backend",
      "--tasks",
      "ids=4",
      "--name",
      "unreachable",
      "--agent",
      `http://127.0.0.1:${port}/v1#nobody`,
      "--simulator",
      `${server.url}#simulator`,
      "--give-up",
      "2s",
    ]);
    expect(result.status).toBe(1);
    const summary = last(result.stdout) as { failed: number; failures: Array<{ task: number; reason: string }> };
    expect(summary.failed).toBe(1);
    expect(summary.failures[0]!.task).toBe(4);
    expect(summary.failures[0]!.reason).toMatch(
      /^the agent's model server http:\/\/127\.0\.0\.1:\d+\/v1#nobody was down for 2\.\d s \(since \d\d:\d\d:\d\d UTC: .*ECONNREFUSED.*\); gave up after waiting 2\.\d s \(\d+ attempts\) on \/chat\/completions; the episode was never started$/,
    );
    const exported = await colbench(["export", "unreachable"]);
    expect(exported.stdout).toBe("");
    // An empty file says which step would have filled it, then which episodes were left out and why.
    expect(exported.stderr).toMatch(/^colbench export: official of "unreachable" is empty: /m);
    expect(last(exported.stderr)).toEqual({ left_out: 1, failures: summary.failures });
  });

  it("lists benchmark runs, archives, restores and deletes them", { timeout: 180_000 }, async () => {
    const names = async (...args: string[]) =>
      (await colbench(["runs", "list", "--json", ...args])).stdout
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { name: string }).name);
    expect(await names()).toEqual(["piped", "unreachable"]);
    expect(last((await colbench(["runs", "archive", "piped"])).stdout)).toEqual({ run: "piped", archived: true });
    expect(await names()).toEqual(["unreachable"]);
    expect(await names("--archived")).toEqual(["piped", "unreachable"]);
    await colbench(["runs", "restore", "piped"]);
    // Deleting asks first; a script must say --yes.
    const refused = await colbench(["runs", "delete", "unreachable"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("add --yes to confirm");
    const deleted = await colbench(["runs", "delete", "unreachable", "--yes"]);
    expect(last(deleted.stdout)).toMatchObject({ run: "unreachable", deleted: true, episodes: 1 });
    expect(await names("--all", "--archived")).toEqual(["piped"]);
    expect((await colbench(["runs"])).stdout).toContain("piped");
  });

  it("renames, notes and tags a run, lists by tag, and says what it refuses", { timeout: 180_000 }, async () => {
    const renamed = await colbench(["runs", "rename", "piped", "piped two"]);
    expect(renamed.status, renamed.stderr).toBe(0);
    expect(last(renamed.stdout)).toMatchObject({ from: "piped", name: "piped two" });
    const tagged = await colbench(["runs", "tag", "piped two", "Baseline", "qwen-7b", "--remove", "nothing"]);
    expect(last(tagged.stdout)).toEqual({ run: "piped two", tags: ["baseline", "qwen-7b"] });
    expect(last((await colbench(["runs", "tag", "piped two", "--remove", "qwen-7b"])).stdout)).toEqual({
      run: "piped two",
      tags: ["baseline"],
    });
    expect(last((await colbench(["runs", "note", "piped two", "ran", "on", "the", "lab", "box"])).stdout)).toEqual({
      run: "piped two",
      notes: "ran on the lab box",
    });
    const listed = (await colbench(["runs", "list", "--json", "--tag", "baseline"])).stdout.trim().split("\n");
    expect(listed.map((l) => JSON.parse(l) as { name: string; tags: string[]; notes: string })).toEqual([
      expect.objectContaining({ name: "piped two", tags: ["baseline"], notes: "ran on the lab box" }),
    ]);
    const none = await colbench(["runs", "list", "--tag", "qwen-7b"]);
    expect(none.stdout).toContain('no run is tagged "qwen-7b"');
    // Refusals name the field and what is wrong, and change nothing (so they may all be tried at once).
    const refusals = [
      [["runs", "rename", "piped two", "  "], "name: must not be empty"],
      [["runs", "rename", "piped two", "a/b"], 'name: "/" is not allowed'],
      [["runs", "tag", "piped two", "x".repeat(40)], "at most 32 characters"],
      [["runs", "tag", "piped two", "no spaces!"], 'tag "no spaces!": only lowercase letters'],
      [["runs", "note", "piped two"], "exactly one"],
    ] as const;
    const outcomes = await Promise.all(refusals.map(([args]) => colbench([...args])));
    refusals.forEach(([args, said], i) => {
      expect(outcomes[i]!.status, args.join(" ")).toBe(1);
      expect(outcomes[i]!.stderr, args.join(" ")).toContain(said);
    });
    expect((await colbench(["runs"])).stdout).toMatch(/piped two .*#baseline/);
  });
});
