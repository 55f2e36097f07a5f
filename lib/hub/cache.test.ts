import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteCached, listCached } from "./cache";
import { resolveCheckpoint } from "./checkpoint";
import { startHubServer, type HubServer } from "./testing/hub-server";

// What the Models page and `colbench models` read of the shared cache, and checkpoints in shards.

const scratch = mkdtempSync(path.join(os.tmpdir(), "colbench-hub-cache-"));
let hub: HubServer;

beforeAll(async () => {
  const shard = (n: number) => Buffer.alloc(1000 + n, n);
  hub = await startHubServer([
    {
      type: "model",
      name: "acme/sharded",
      files: {
        "config.json": "{}",
        "model.safetensors.index.json": JSON.stringify({
          metadata: {},
          weight_map: {
            "a.weight": "model-00001-of-00002.safetensors",
            "b.weight": "model-00002-of-00002.safetensors",
            "c.weight": "model-00002-of-00002.safetensors",
          },
        }),
        "model-00001-of-00002.safetensors": shard(1),
        "model-00002-of-00002.safetensors": shard(2),
        "pytorch_model-00001-of-00002.bin": shard(3),
        "tokenizer.json": '{"v":1}',
      },
    },
  ]);
});
afterAll(async () => {
  await hub.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the shared cache", () => {
  it("lists what Python's huggingface_hub wrote: sizes, revisions with their refs, files in sub-folders", () => {
    const cacheDir = path.join(scratch, "python");
    cpSync(path.join(import.meta.dirname, "fixtures", "python-cache"), cacheDir, {
      recursive: true,
      verbatimSymlinks: true,
    });
    const { repos } = listCached({ cacheDir });
    expect(repos.map((r) => [r.id, r.type, r.size, r.partial])).toEqual([
      ["datasets/facebook/collaborative_agent_bench", "dataset", 19579, 0],
      ["acme/tiny-weights", "model", 46 + 68 + 248, 0],
    ]);
    expect(repos[0]!.revisions).toEqual([
      {
        commit: "b4c15f031290b553fe9a4535bddff3cd3bb29672",
        refs: ["main"],
        files: ["backend_tasks/test.jsonl"],
        size: 19579,
      },
    ]);
    expect(repos[1]!.revisions[0]!.files).toEqual(["config.json", "model.safetensors", "tokenizer.json"]);

    expect(deleteCached("datasets/facebook/collaborative_agent_bench", { cacheDir })).toEqual({
      removed: true,
      bytes: 19579,
    });
    expect(listCached({ cacheDir }).repos.map((r) => r.id)).toEqual(["acme/tiny-weights"]);
    expect(deleteCached("datasets/facebook/collaborative_agent_bench", { cacheDir })).toEqual({
      removed: false,
      bytes: 0,
    });
    expect(() => deleteCached("../../etc", { cacheDir })).toThrow(/neither an existing folder nor a hub id/);
    expect(listCached({ cacheDir: path.join(scratch, "none") }).repos).toEqual([]);
  });

  it("resolves a sharded checkpoint to its index and the shards it names, nothing else", async () => {
    const cacheDir = path.join(scratch, "sharded");
    const checkpoint = await resolveCheckpoint("acme/sharded", {
      tokenizer: true,
      settings: { endpoint: hub.url, cacheDir, offline: false },
    });
    expect(checkpoint.weights).toEqual(["model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"]);
    expect(checkpoint.files).toEqual([
      "config.json",
      "model.safetensors.index.json",
      "model-00001-of-00002.safetensors",
      "model-00002-of-00002.safetensors",
      "tokenizer.json",
    ]);
    expect(hub.requests.some((r) => r.path.includes(".bin"))).toBe(false);
    const before = hub.requests.length;
    const offline = await resolveCheckpoint("acme/sharded", {
      tokenizer: true,
      settings: { endpoint: hub.url, cacheDir, offline: true },
    });
    expect(offline.folder).toBe(checkpoint.folder);
    expect(hub.requests.length).toBe(before);
    expect(listCached({ cacheDir }).repos[0]).toMatchObject({
      id: "acme/sharded",
      size: 2 + 1001 + 1002 + 7 + hub.fileOf("model", "acme/sharded", "model.safetensors.index.json").content.length,
    });
  });
});
