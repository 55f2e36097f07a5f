import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { projectRoot } from "../paths";
import { RunEditError, checkRunName, checkRunNotes, checkRunTag } from "./run-notes";
import { storeFor, type Store } from ".";

// A run's name, notes and tags: what is stored, what is refused (and that a refusal changes
// nothing), tags kept sorted without repeats under two writers, and the runs list's tag filter.
// Once on embedded PGlite, once on a real PostgreSQL server.

const { backends, cleanup } = databaseBackends("run-notes");
afterAll(cleanup);

const config = {
  benchmark: "backend",
  agent: { baseUrl: "http://m/v1", model: "m" },
  simulator: { baseUrl: "http://m/v1", model: "s" },
};

async function refusal(promise: Promise<unknown>): Promise<{ reason: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RunEditError) return { reason: error.reason, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("what a run may be called and tagged", () => {
  it("trims a name and refuses empty, all-digit, too long and odd ones, naming the field", () => {
    expect(checkRunName("  qwen 7b: baseline (v2)  ")).toBe("qwen 7b: baseline (v2)");
    expect(checkRunName("Läufe-1")).toBe("Läufe-1");
    expect(() => checkRunName("   ")).toThrow("name: must not be empty");
    expect(() => checkRunName("1234")).toThrow("all digits");
    expect(() => checkRunName("x".repeat(121))).toThrow("name: at most 120 characters (this one has 121)");
    expect(() => checkRunName("a/b")).toThrow('name: "/" is not allowed');
    expect(() => checkRunName("a\nb")).toThrow('name: "\\n" is not allowed');
    expect(() => checkRunName("-dash")).toThrow("starting with a letter or digit");
  });

  it("lowercases tags and refuses empty, long and odd ones", () => {
    expect(checkRunTag(" Baseline ")).toBe("baseline");
    expect(checkRunTag("qwen2.5-7b_v1")).toBe("qwen2.5-7b_v1");
    expect(() => checkRunTag("")).toThrow("tag: must not be empty");
    expect(() => checkRunTag("t".repeat(33))).toThrow("at most 32 characters (it has 33)");
    expect(() => checkRunTag("a b")).toThrow('tag "a b": only lowercase letters, digits and . _ -');
    expect(() => checkRunTag("ünï")).toThrow("only lowercase letters");
  });

  it("keeps notes' line breaks, refuses control characters and more than 10,000 characters", () => {
    expect(checkRunNotes("  one\r\ntwo\tthree  ")).toBe("one\ntwo\tthree");
    expect(() => checkRunNotes("bell\u0007")).toThrow("notes: control characters are not allowed");
    expect(() => checkRunNotes("n".repeat(10_001))).toThrow("notes: at most 10000 characters");
  });
});

describe.each(backends)("run names, notes and tags on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    db = await open();
    store = storeFor(db.prisma);
    await store.tasks.import({
      file: path.join(projectRoot, "samples", "backend.jsonl"),
      benchmark: "backend",
      name: "s",
    });
    for (const name of ["alpha", "beta", "gamma"])
      ids[name] = (await db.prisma.run.create({ data: { name, benchmark: "backend", config } })).id;
  });
  afterAll(async () => db?.close());

  it("renames a run and refuses a name another run has, a bad name and a missing run", async () => {
    expect(await store.runs.rename(ids.alpha!, "  alpha one ")).toEqual({ name: "alpha one" });
    expect((await store.runs.find("alpha one"))?.id).toBe(ids.alpha);
    expect(await store.runs.find("alpha")).toBeNull();
    // Its own name again is no conflict.
    expect(await store.runs.rename(ids.alpha!, "alpha one")).toEqual({ name: "alpha one" });
    expect(await refusal(store.runs.rename(ids.beta!, "alpha one"))).toEqual({
      reason: "taken",
      message: `name: another run (${ids.alpha}) is named "alpha one"`,
    });
    expect((await refusal(store.runs.rename(ids.beta!, ""))).reason).toBe("invalid");
    expect((await refusal(store.runs.rename(999_999, "free"))).reason).toBe("missing");
    expect((await store.runs.find(ids.beta!))?.name).toBe("beta");
  });

  it("stores notes and shows them with tags in the run's summary", async () => {
    expect(await store.runs.setNotes(ids.beta!, "lr 1e-6\r\nseed 3")).toEqual({ notes: "lr 1e-6\nseed 3" });
    await store.runs.changeTags(ids.beta!, { add: ["Baseline"] });
    expect(await store.runs.summary(ids.beta!)).toMatchObject({ notes: "lr 1e-6\nseed 3", tags: ["baseline"] });
    expect(await store.runs.summary(ids.gamma!)).toMatchObject({ notes: "", tags: [] });
    expect((await refusal(store.runs.setNotes(999_999, "x"))).reason).toBe("missing");
  });

  it("adds and removes tags sorted without repeats; a refused change changes nothing", async () => {
    expect(await store.runs.changeTags(ids.gamma!, { add: ["zeta", "Alpha", "zeta"] })).toEqual({
      tags: ["alpha", "zeta"],
    });
    expect(await store.runs.changeTags(ids.gamma!, { add: ["mid"], remove: ["ZETA", "absent"] })).toEqual({
      tags: ["alpha", "mid"],
    });
    expect(await refusal(store.runs.changeTags(ids.gamma!, { add: ["ok", "not ok"] }))).toMatchObject({
      reason: "invalid",
    });
    const many = Array.from({ length: 19 }, (_, i) => `t${i}`);
    expect((await refusal(store.runs.changeTags(ids.gamma!, { add: many }))).message).toBe(
      "tags: at most 20 per run (this would make 21)",
    );
    expect((await store.runs.summary(ids.gamma!))?.tags).toEqual(["alpha", "mid"]);
    expect(await store.runs.changeTags(ids.gamma!, { set: ["only"] })).toEqual({ tags: ["only"] });
    expect(await store.runs.changeTags(ids.gamma!, { set: ["alpha", "mid"] })).toEqual({ tags: ["alpha", "mid"] });
  });

  it("keeps both of two people's tags added at the same moment", async () => {
    await Promise.all(Array.from({ length: 6 }, (_, i) => store.runs.changeTags(ids.alpha!, { add: [`both-${i}`] })));
    expect((await store.runs.summary(ids.alpha!))?.tags).toEqual(Array.from({ length: 6 }, (_, i) => `both-${i}`));
  });

  it("filters the runs list by a tag and counts the tags of the runs listed", async () => {
    const names = async (tag: string) => (await store.runs.list({ tag })).map((r) => r.name);
    expect(await names("alpha")).toEqual(["gamma"]);
    expect(await names("baseline")).toEqual(["beta"]);
    expect(await names("nobody")).toEqual([]);
    await store.runs.changeTags(ids.beta!, { add: ["alpha"] });
    expect(await names("alpha")).toEqual(["gamma", "beta"]);
    // Archived runs carry their tags out of the list with them, unless asked for.
    await store.runs.setArchived(ids.gamma!, true);
    expect(await names("alpha")).toEqual(["beta"]);
    expect((await store.runs.tags()).find((t) => t.tag === "alpha")).toEqual({ tag: "alpha", runs: 1 });
    expect((await store.runs.tags({ includeArchived: true })).slice(0, 1)).toEqual([{ tag: "alpha", runs: 2 }]);
    await store.runs.setArchived(ids.gamma!, false);
  });
});
