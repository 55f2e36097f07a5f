import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/open";
import { projectRoot } from "../paths";
import { storeFor, type Store } from "../store";
import { ensureEpisodes } from "../store/episodes";
import { importTasks } from "../store/import-tasks";
import { giveLiveServers, liveServers, NoLiveServers } from "./live-servers";

// Which model servers score an episode's live advantages: the ones given to `colbench serve`, else
// the ones the run's lineage names (its latest rank record's critic; its policy, else the latest
// sampling's), and why there are none when nothing names a server.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-live-servers-"));
let db: Database;
let store: Store;
let taskId = 0;

async function episodeOf(name: string): Promise<{ runId: number; episodeId: number }> {
  const run = await db.prisma.run.create({ data: { name, benchmark: "backend", kind: "played", config: {} } });
  await ensureEpisodes(db.prisma, run.id, [taskId], 1);
  const episode = await db.prisma.episode.findFirstOrThrow({ where: { runId: run.id } });
  return { runId: run.id, episodeId: episode.id };
}

beforeAll(async () => {
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  store = storeFor(db.prisma);
  await importTasks(db.prisma, {
    file: path.join(projectRoot, "samples", "backend.jsonl"),
    benchmark: "backend",
    name: "samples",
  });
  taskId = (await db.prisma.task.findFirstOrThrow()).id;
}, 120_000);

afterEach(() => {
  delete process.env.COLBENCH_LIVE_CRITIC;
  delete process.env.COLBENCH_LIVE_POLICY;
});

afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the servers of live advantages", () => {
  it("takes both servers given to serve, or neither, each a URL#MODEL", async () => {
    expect(() => giveLiveServers({ critic: "http://c/v1#critic" })).toThrow("--critic and --policy go together");
    expect(() => giveLiveServers({ critic: "http://c/v1", policy: "http://p/v1#p" })).toThrow(
      "--critic: expected URL#MODEL",
    );
    giveLiveServers({});
    expect(process.env.COLBENCH_LIVE_CRITIC).toBeUndefined();
    giveLiveServers({ critic: "http://c/v1#critic", policy: "http://p/v1#policy" });
    const { episodeId } = await episodeOf("given");
    expect(await liveServers(store, episodeId)).toEqual({
      critic: { baseUrl: "http://c/v1", model: "critic" },
      policy: { baseUrl: "http://p/v1", model: "policy" },
      from: "colbench serve",
    });
  });

  it("reads the run's lineage: rank's critic, its policy or else the sampling's, and says why none", async () => {
    const { runId, episodeId } = await episodeOf("lineage");
    const none = () => liveServers(store, episodeId);
    await expect(none()).rejects.toThrow("run lineage has not been ranked");
    await expect(none()).rejects.toBeInstanceOf(NoLiveServers);

    await store.sweet.recordStep(runId, "rank", { via: "cli", critic: { model: "tiny", device: "webgpu" } });
    await expect(none()).rejects.toThrow("ran its critic on a machine, not a server");

    const rank = await store.sweet.recordStep(runId, "rank", {
      via: "cli",
      critic: { model: "critic", url: "http://c/v1", replicas: ["http://c2/v1"] },
    });
    await expect(none()).rejects.toThrow("names no policy server");

    const sampling = await store.sweet.recordStep(runId, "candidates", {
      via: "studio",
      policy: { model: "policy", url: "http://p/v1" },
    });
    expect(await liveServers(store, episodeId)).toEqual({
      critic: { baseUrl: "http://c/v1", model: "critic", replicas: ["http://c2/v1"] },
      policy: { baseUrl: "http://p/v1", model: "policy" },
      from: `run lineage's rank record ${rank.id} and candidates record ${sampling.id}`,
    });

    // A ranking that rescored the policy on a machine names no policy server: the sampling's is not its policy.
    await store.sweet.recordStep(runId, "rank", {
      via: "cli",
      critic: { model: "critic", url: "http://c/v1" },
      policy: { model: "tiny", device: "cpu" },
    });
    await expect(none()).rejects.toThrow("names no policy server");
  });
});
