import {
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
} from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isHubError } from "./errors";
import { parseRef } from "./ref";
import { resolveDataset, resolveModel, type FileProgress } from "./resolve";
import { hubSettings, type HubSettings } from "./settings";
import { clipRepo, colbenchDatasetRepo, GATED_TOKEN, gatedRepo, tinyWeightsRepo } from "./testing/fixture-repos";
import { startHubServer, type HubServer } from "./testing/hub-server";

// The resolver against a test double of the hub (HF_ENDPOINT), on fresh caches.

let hub: HubServer;
const scratch = mkdtempSync(path.join(os.tmpdir(), "colbench-hub-"));
let n = 0;
const freshCache = () => path.join(scratch, `cache-${++n}`);
const settings = (cacheDir: string, extra: Partial<HubSettings> = {}): Partial<HubSettings> => ({
  endpoint: hub.url,
  cacheDir,
  offline: false,
  token: undefined,
  ...extra,
});
const WEIGHTS = ["config.json", "model.safetensors"];

beforeAll(async () => {
  hub = await startHubServer([tinyWeightsRepo(), clipRepo(), gatedRepo(), colbenchDatasetRepo()]);
});
afterAll(async () => {
  await hub.close();
  rmSync(scratch, { recursive: true, force: true });
});
afterEach(() => {
  hub.faults.cutOff = undefined;
  hub.faults.corrupt = undefined;
  hub.faults.ignoreRanges = undefined;
});

const requestsDuring = async <T>(work: () => Promise<T>): Promise<{ value: T; requests: HubServer["requests"] }> => {
  const before = hub.requests.length;
  const value = await work();
  return { value, requests: hub.requests.slice(before) };
};

describe("resolving a hub id", () => {
  it("downloads only the files asked for, with progress, into a fresh cache laid out as Python's", async () => {
    const cacheDir = freshCache();
    const progress: FileProgress[] = [];
    const { value: resolved } = await requestsDuring(() =>
      resolveModel("acme/tiny-weights", {
        files: WEIGHTS,
        settings: settings(cacheDir),
        onProgress: (p) => progress.push(p),
      }),
    );
    expect(resolved).toMatchObject({
      source: "hub",
      repo: "acme/tiny-weights",
      revision: "main",
      commit: hub.commitOf("model", "acme/tiny-weights"),
      downloaded: WEIGHTS,
    });
    for (const file of WEIGHTS)
      expect(readFileSync(path.join(resolved.folder, file))).toEqual(
        hub.fileOf("model", "acme/tiny-weights", file).content,
      );
    // Never the files nobody reads.
    expect(hub.requests.some((r) => /pytorch_model\.bin|model\.onnx|tokenizer/.test(r.path))).toBe(false);

    const dir = path.join(cacheDir, "models--acme--tiny-weights");
    expect(readFileSync(path.join(dir, "refs", "main"), "utf8")).toBe(resolved.commit);
    const weights = hub.fileOf("model", "acme/tiny-weights", "model.safetensors");
    const config = hub.fileOf("model", "acme/tiny-weights", "config.json");
    expect(readdirSync(path.join(dir, "blobs")).sort()).toEqual([weights.sha256, config.gitOid].sort());
    const link = path.join(dir, "snapshots", resolved.commit!, "model.safetensors");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(`../../blobs/${weights.sha256}`);

    const finished = progress.filter((p) => p.done).map((p) => [p.file, p.received, p.total]);
    expect(finished).toEqual(
      WEIGHTS.map((f) => [
        f,
        hub.fileOf("model", "acme/tiny-weights", f).content.length,
        hub.fileOf("model", "acme/tiny-weights", f).content.length,
      ]),
    );
  });

  it("makes no request the second time", async () => {
    const cacheDir = freshCache();
    await resolveModel("acme/tiny-weights", { files: WEIGHTS, settings: settings(cacheDir) });
    const { value, requests } = await requestsDuring(() =>
      resolveModel("acme/tiny-weights", { files: WEIGHTS, settings: settings(cacheDir) }),
    );
    expect(requests).toEqual([]);
    expect(value.source).toBe("cache");
  });

  it("uses a cache written by Python's huggingface_hub with no request (optional files it knows are absent included)", async () => {
    const cacheDir = freshCache();
    cpSync(path.join(import.meta.dirname, "fixtures", "python-cache"), cacheDir, {
      recursive: true,
      verbatimSymlinks: true,
    });
    const { value, requests } = await requestsDuring(() =>
      resolveModel("acme/tiny-weights", {
        files: [...WEIGHTS, "tokenizer.json"],
        optional: ["tokenizer_config.json"],
        settings: settings(cacheDir),
      }),
    );
    expect(requests).toEqual([]);
    expect(value).toMatchObject({ source: "cache", files: [...WEIGHTS, "tokenizer.json"] });
    expect(readFileSync(path.join(value.folder, "model.safetensors"))).toEqual(
      hub.fileOf("model", "acme/tiny-weights", "model.safetensors").content,
    );
    const data = await requestsDuring(() =>
      resolveDataset("facebook/collaborative_agent_bench", {
        files: ["backend_tasks/test.jsonl"],
        settings: settings(cacheDir),
      }),
    );
    expect(data.requests).toEqual([]);
    expect(readFileSync(path.join(data.value.folder, "backend_tasks/test.jsonl"))).toEqual(
      hub.fileOf("dataset", "facebook/collaborative_agent_bench", "backend_tasks/test.jsonl").content,
    );
  });

  it("leaves nothing usable after a download cut off midway, and the next resolve resumes it with a range", async () => {
    const cacheDir = freshCache();
    const file = hub.fileOf("model", "openai/clip-vit-base-patch32", "model.safetensors");
    hub.faults.cutOff = { file: "model.safetensors", after: 200_000, times: 1 };
    const cut = await resolveModel("openai/clip-vit-base-patch32", {
      files: WEIGHTS,
      settings: settings(cacheDir),
      retries: 0,
    }).catch((e: unknown) => e);
    expect(isHubError(cut, "interrupted")).toBe(true);
    expect((cut as Error).message).toMatch(/model\.safetensors.*run again to resume/);
    const dir = path.join(cacheDir, "models--openai--clip-vit-base-patch32");
    expect(existsSync(path.join(dir, "blobs", file.sha256))).toBe(false);
    expect(statSync(path.join(dir, "blobs", `${file.sha256}.incomplete`)).size).toBe(200_000);
    // Nothing a later resolve (offline: cache only) would take for the file.
    const offline = await resolveModel("openai/clip-vit-base-patch32", {
      files: WEIGHTS,
      settings: settings(cacheDir, { offline: true }),
    }).catch((e: unknown) => e);
    expect(isHubError(offline, "offline-missing")).toBe(true);

    const { value, requests } = await requestsDuring(() =>
      resolveModel("openai/clip-vit-base-patch32", { files: WEIGHTS, settings: settings(cacheDir) }),
    );
    expect(
      requests.filter((r) => r.path.endsWith("/model.safetensors") && r.range !== "bytes=0-0").map((r) => r.range),
    ).toEqual([`bytes=200000-${file.content.length - 1}`]);
    expect(readFileSync(path.join(value.folder, "model.safetensors"))).toEqual(file.content);
    expect(existsSync(path.join(dir, "blobs", `${file.sha256}.incomplete`))).toBe(false);
  });

  it("starts over when the server ignores the range, and retries a cut connection by itself", async () => {
    const cacheDir = freshCache();
    const file = hub.fileOf("model", "openai/clip-vit-base-patch32", "model.safetensors");
    hub.faults.cutOff = { file: "model.safetensors", after: 100_000, times: 1 };
    hub.faults.ignoreRanges = true;
    const resolved = await resolveModel("openai/clip-vit-base-patch32", {
      files: WEIGHTS,
      settings: settings(cacheDir),
    });
    expect(readFileSync(path.join(resolved.folder, "model.safetensors"))).toEqual(file.content);
  });

  it("refuses a corrupted file and caches nothing of it", async () => {
    const cacheDir = freshCache();
    hub.faults.corrupt = ["model.safetensors"];
    const error = await resolveModel("acme/tiny-weights", { files: WEIGHTS, settings: settings(cacheDir) }).catch(
      (e: unknown) => e,
    );
    expect(isHubError(error, "integrity")).toBe(true);
    expect((error as Error).message).toMatch(
      /model\.safetensors .* is corrupt: got 248 bytes with sha256 [0-9a-f]{64}, the hub lists 248 bytes with [0-9a-f]{64}/,
    );
    const blobs = path.join(cacheDir, "models--acme--tiny-weights", "blobs");
    expect(
      readdirSync(blobs).filter((f) =>
        f.startsWith(hub.fileOf("model", "acme/tiny-weights", "model.safetensors").sha256),
      ),
    ).toEqual([]);
    hub.faults.corrupt = undefined;
    const resolved = await resolveModel("acme/tiny-weights", { files: WEIGHTS, settings: settings(cacheDir) });
    expect(readFileSync(path.join(resolved.folder, "model.safetensors"))).toEqual(
      hub.fileOf("model", "acme/tiny-weights", "model.safetensors").content,
    );
  });

  it("with HF_HUB_OFFLINE makes no request and names what the cache lacks", async () => {
    const cacheDir = freshCache();
    const { value: error, requests } = await requestsDuring(() =>
      resolveModel("openai/clip-vit-base-patch32", {
        files: WEIGHTS,
        settings: settings(cacheDir, { offline: true }),
      }).catch((e: unknown) => e),
    );
    expect(requests).toEqual([]);
    expect(isHubError(error, "offline-missing")).toBe(true);
    expect((error as Error).message).toBe(
      `HF_HUB_OFFLINE is set and the Hugging Face cache (${cacheDir}) lacks openai/clip-vit-base-patch32@main (config.json, model.safetensors; no snapshot of that revision); unset HF_HUB_OFFLINE to download, or point HF_HUB_CACHE or HF_HOME at a cache that has it`,
    );
  });

  it("names HF_TOKEN for a gated repository, and passes with the token", async () => {
    const cacheDir = freshCache();
    const error = await resolveModel("acme/gated-model", { files: WEIGHTS, settings: settings(cacheDir) }).catch(
      (e: unknown) => e,
    );
    expect(isHubError(error, "gated")).toBe(true);
    expect((error as Error).message).toMatch(
      /^acme\/gated-model is gated or private \(HTTP 401 .*no HF_TOKEN is set\): accept its terms at .*acme\/gated-model while signed in, then set HF_TOKEN/,
    );
    const wrong = await resolveModel("acme/gated-model", {
      files: WEIGHTS,
      settings: settings(cacheDir, { token: "hf_wrong" }),
    }).catch((e: unknown) => e);
    expect((wrong as Error).message).toMatch(/the token in HF_TOKEN was refused/);
    const { value, requests } = await requestsDuring(() =>
      resolveModel("acme/gated-model", { files: WEIGHTS, settings: settings(cacheDir, { token: GATED_TOKEN }) }),
    );
    expect(value.downloaded).toEqual(WEIGHTS);
    expect(requests.every((r) => r.authorization === `Bearer ${GATED_TOKEN}`)).toBe(true);
  });

  it("says which files a repository lacks, and remembers absent optional files as Python does", async () => {
    const cacheDir = freshCache();
    const error = await resolveModel("acme/tiny-weights", {
      files: ["model-00001-of-00002.safetensors"],
      settings: settings(cacheDir),
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /^acme\/tiny-weights@main has no model-00001-of-00002\.safetensors \(it has /,
    );
    const first = await resolveModel("acme/tiny-weights", {
      files: ["config.json"],
      optional: ["tokenizer.json", "tokenizer_config.json"],
      settings: settings(cacheDir),
    });
    expect(first.files).toEqual(["config.json", "tokenizer.json"]);
    expect(
      existsSync(
        path.join(cacheDir, "models--acme--tiny-weights", ".no_exist", first.commit!, "tokenizer_config.json"),
      ),
    ).toBe(true);
    const { requests } = await requestsDuring(() =>
      resolveModel("acme/tiny-weights", {
        files: ["config.json"],
        optional: ["tokenizer.json", "tokenizer_config.json"],
        settings: settings(cacheDir),
      }),
    );
    expect(requests).toEqual([]);
  });

  it("fails clearly for an unknown repository or revision, and when the hub cannot be reached", async () => {
    const cacheDir = freshCache();
    await expect(resolveModel("acme/nothing-here", { files: WEIGHTS, settings: settings(cacheDir) })).rejects.toThrow(
      /^no repository acme\/nothing-here at http/,
    );
    await expect(
      resolveModel("acme/tiny-weights@v9", { files: WEIGHTS, settings: settings(cacheDir) }),
    ).rejects.toThrow(/has no revision "v9"/);
    // A port nothing listens on any more.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      resolveModel("acme/tiny-weights", {
        files: WEIGHTS,
        settings: settings(cacheDir, { endpoint: `http://127.0.0.1:${port}` }),
      }),
    ).rejects.toThrow(
      new RegExp(
        `^cannot reach http://127\\.0\\.0\\.1:${port} for acme/tiny-weights \\(ECONNREFUSED\\); set HF_HUB_OFFLINE=1 to use only the cache`,
      ),
    );
  });

  it("takes a commit as the revision and a folder as it is", async () => {
    const cacheDir = freshCache();
    const commit = hub.commitOf("model", "acme/tiny-weights");
    const pinned = await resolveModel(`acme/tiny-weights@${commit}`, { files: WEIGHTS, settings: settings(cacheDir) });
    expect(pinned.folder).toBe(path.join(cacheDir, "models--acme--tiny-weights", "snapshots", commit));
    const again = await requestsDuring(() =>
      resolveModel(`acme/tiny-weights@${commit}`, { files: WEIGHTS, settings: settings(cacheDir, { offline: true }) }),
    );
    expect(again.requests).toEqual([]);
    const folder = await resolveModel(pinned.folder, { files: WEIGHTS });
    expect(folder).toMatchObject({ source: "folder", folder: pinned.folder });
    await expect(resolveModel(pinned.folder, { files: ["weights.gguf"] })).rejects.toThrow(/lacks weights\.gguf/);
  });
});

describe("references and settings", () => {
  it("parses hub ids, revisions, datasets and folders", () => {
    expect(parseRef("openai/clip-vit-base-patch32")).toEqual({
      kind: "hub",
      type: "model",
      name: "openai/clip-vit-base-patch32",
      revision: "main",
    });
    expect(parseRef("meta-llama/Llama-3.1-8B-Instruct@refs/pr/3")).toMatchObject({
      name: "meta-llama/Llama-3.1-8B-Instruct",
      revision: "refs/pr/3",
    });
    expect(parseRef("datasets/facebook/collaborative_agent_bench")).toMatchObject({
      type: "dataset",
      name: "facebook/collaborative_agent_bench",
    });
    expect(parseRef("./weights")).toMatchObject({ kind: "folder", path: path.resolve("weights") });
    expect(parseRef(scratch)).toEqual({ kind: "folder", path: scratch });
    expect(() => parseRef("a/b/c")).toThrow(/neither an existing folder nor a hub id/);
    expect(() => parseRef("a/b@..")).toThrow(/bad revision/);
  });

  it("reads the variables Python's huggingface_hub reads", () => {
    const saved = { ...process.env };
    try {
      for (const k of [
        "HF_HUB_CACHE",
        "HUGGINGFACE_HUB_CACHE",
        "HF_ENDPOINT",
        "HF_HUB_OFFLINE",
        "HF_TOKEN",
        "HF_HOME",
        "HF_TOKEN_PATH",
      ])
        delete process.env[k];
      process.env.HF_HOME = path.join(scratch, "home");
      expect(hubSettings()).toMatchObject({
        endpoint: "https://huggingface.co",
        cacheDir: path.join(scratch, "home", "hub"),
        offline: false,
        token: undefined,
      });
      process.env.HF_HUB_CACHE = path.join(scratch, "elsewhere");
      process.env.HF_ENDPOINT = "https://hf-mirror.example/";
      process.env.HF_HUB_OFFLINE = "yes";
      process.env.HF_TOKEN = "hf_abc";
      expect(hubSettings()).toEqual({
        endpoint: "https://hf-mirror.example",
        cacheDir: path.join(scratch, "elsewhere"),
        offline: true,
        token: "hf_abc",
      });
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    }
  });
});
