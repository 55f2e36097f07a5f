import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../lib/db/open";
import { resolveModel } from "../lib/hub";
import { clipRepo, colbenchDatasetRepo } from "../lib/hub/testing/fixture-repos";
import { startHubServer, type HubServer } from "../lib/hub/testing/hub-server";
import { projectRoot } from "../lib/paths";
import { storeFor } from "../lib/store";
import { startScriptedServer, type ScriptedServer } from "../e2e/fixtures/scripted-model-server";

// The real binary against a test double of the Hugging Face hub (HF_ENDPOINT): the official task
// files imported by name, and the frontend embedder chosen by what the shared cache holds.

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-cli-hub-"));
// One data folder for every command (a fresh one costs each process its migrations).
const data = path.join(scratch, "data");
let hub: HubServer;
let models: ScriptedServer;
const frontendFixture = String(colbenchDatasetRepo({ frontend: true }).files["frontend_tasks/test.jsonl"]);

beforeAll(async () => {
  hub = await startHubServer([clipRepo(), colbenchDatasetRepo({ frontend: true })]);
  const tasks = frontendFixture
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { problem_description: string; ground_truth: string });
  models = await startScriptedServer({
    tasks: tasks.map((t) => ({ problemDescription: t.problem_description, groundTruth: t.ground_truth })),
  });
});
afterAll(async () => {
  await hub?.close();
  await models?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** Runs colbench without blocking this process: the test hub and model server answer from it. */
function colbench(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(projectRoot, "cli", "bin.mjs"), ...args], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: "", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr += c));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

const jsonLines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("colbench import --official", () => {
  it(
    "fetches the dataset's task files through the cache, imports both, and adds nothing the second time",
    { timeout: 240_000 },
    async () => {
      const env = {
        COLBENCH_DATA: data,
        HF_ENDPOINT: hub.url,
        HF_HUB_CACHE: path.join(scratch, "import-cache"),
        HF_HUB_OFFLINE: "",
      };
      const first = await colbench(env, "import", "--official");
      expect(first.stderr).toContain("fetched backend_tasks/test.jsonl");
      expect(first.code, first.stderr).toBe(0);
      expect(jsonLines(first.stdout)).toEqual([
        {
          file: "datasets/facebook/collaborative_agent_bench/backend_tasks/test.jsonl",
          lines: 10,
          inserted: 10,
          existing: 0,
          bad: 0,
        },
        {
          file: "datasets/facebook/collaborative_agent_bench/frontend_tasks/test.jsonl",
          lines: 6,
          inserted: 6,
          existing: 0,
          bad: 0,
        },
      ]);
      // Only the two task files: never the offline trajectories beside them.
      expect(hub.requests.some((r) => r.path.includes("colbench_code_offline"))).toBe(false);

      // Requests for ColBench's dataset only: other registered benchmarks' datasets are not on this hub.
      const colbenchRequests = () => hub.requests.filter((r) => r.path.includes("collaborative_agent_bench")).length;
      const requests = colbenchRequests();
      const again = await colbench(env, "import", "--official");
      expect(again.code).toBe(0);
      expect(jsonLines(again.stdout).map((r) => [r.inserted, r.existing])).toEqual([
        [0, 10],
        [0, 6],
      ]);
      expect(colbenchRequests()).toBe(requests);

      const listed = await colbench(env, "tasks", "list", "--json");
      const sources = new Set(jsonLines(listed.stdout).map((t) => t.source));
      expect(sources).toEqual(
        new Set([
          "collaborative_agent_bench/backend_tasks/test.jsonl",
          "collaborative_agent_bench/frontend_tasks/test.jsonl",
        ]),
      );

      // The train split has no frontend file in this layout: said, and the backend one still imported.
      const train = await colbench(env, "import", "--official", "--split", "train");
      expect(train.code).toBe(0);
      expect(jsonLines(train.stdout)).toEqual([
        {
          file: "datasets/facebook/collaborative_agent_bench/backend_tasks/train.jsonl",
          lines: 4,
          inserted: 4,
          existing: 0,
          bad: 0,
        },
      ]);
      expect(train.stderr).toContain(
        "has no frontend_tasks/train.jsonl: the benchmark's frontend tasks are built from HuggingFaceM4/WebSight",
      );
    },
  );

  it("offline with nothing cached says what is missing", async () => {
    const env = {
      COLBENCH_DATA: data,
      HF_ENDPOINT: hub.url,
      HF_HUB_CACHE: path.join(scratch, "offline-cache"),
      HF_HUB_OFFLINE: "1",
    };
    const { code, stderr } = await colbench(env, "import", "--official");
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^colbench: HF_HUB_OFFLINE is set and the Hugging Face cache \(.*offline-cache\) lacks datasets\/facebook\/collaborative_agent_bench@main \(backend_tasks\/test\.jsonl; no snapshot/m,
    );
  });
});

describe("the frontend embedder a run uses when none is named", () => {
  beforeAll(async () => {
    // The hub fixture's frontend tasks (already there when the import above ran: imports are idempotent).
    const file = path.join(scratch, "pages.jsonl");
    fs.writeFileSync(file, frontendFixture);
    const imported = await colbench(
      { COLBENCH_DATA: data },
      "import",
      file,
      "--benchmark",
      "frontend",
      "--name",
      "pages.jsonl",
    );
    expect(imported.code, imported.stderr).toBe(0);
  });

  const run = async (name: string, env: Record<string, string>) => {
    const result = await colbench(
      { COLBENCH_DATA: data, ...env },
      "run",
      "--benchmark",
      "frontend",
      "--tasks",
      "split=test",
      "--limit",
      "1",
      "--name",
      name,
      "--agent",
      `${models.url}#ask-then-answer`,
      "--simulator",
      `${models.url}#simulator`,
    );
    expect(result.code, result.stderr).toBe(0);
    // Nothing else has the folder now: read what the run stored.
    const db = await openDatabase({ pgliteDir: path.join(data, "db"), url: "" });
    try {
      const store = storeFor(db.prisma);
      const stored = (await store.runs.find(name))!;
      const episode = await db.prisma.episode.findFirstOrThrow({ where: { runId: stored.id } });
      return {
        stderr: result.stderr,
        config: stored.config as { embedder: string; clipPath?: string; embedderReason?: string },
        details: episode.details as { embedder?: string },
      };
    } finally {
      await db.close();
    }
  };

  it(
    "is CLIP ViT-B/32 when the cache holds openai/clip-vit-base-patch32, even offline",
    { timeout: 180_000 },
    async () => {
      const cache = path.join(scratch, "clip-cache");
      await resolveModel("openai/clip-vit-base-patch32", {
        files: ["config.json", "model.safetensors"],
        settings: { endpoint: hub.url, cacheDir: cache, offline: false },
      });
      const { stderr, config, details } = await run("with-clip", { HF_HUB_CACHE: cache, HF_HUB_OFFLINE: "1" });
      expect(config).toMatchObject({
        embedder: "clip-vit-b32",
        clipPath: "openai/clip-vit-base-patch32",
        embedderReason: expect.stringContaining("is in the Hugging Face cache") as unknown,
      });
      expect(stderr).toContain("frontend similarity: CLIP ViT-B/32, the paper's metric");
      // The fixture is a tiny random CLIP, so its id spells out its shape rather than claiming B/32's.
      expect(details.embedder).toBe("clip-vision-h64-l2-p32-i96-e32");
    },
  );

  it(
    "is default-v2 with a one-line notice when the cache is empty and HF_HUB_OFFLINE is set",
    { timeout: 180_000 },
    async () => {
      const { stderr, config, details } = await run("without-clip", {
        HF_HUB_CACHE: path.join(scratch, "empty-cache"),
        HF_HUB_OFFLINE: "1",
      });
      expect(config.embedder).toBe("default");
      expect(details.embedder).toBe("default-v2");
      const notices = stderr.split("\n").filter((l) => l.startsWith("colbench: frontend similarity uses default-v2"));
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain(
        "not comparable with the paper's scores): HF_HUB_OFFLINE is set and the Hugging Face cache",
      );
    },
  );
});
