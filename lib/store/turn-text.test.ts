import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { projectRoot } from "../paths";
import { storeFor, type Store } from ".";

// A model server may answer with a NUL character (valid JSON, "\u0000"), which PostgreSQL's text and jsonb
// cannot hold: the turn is stored with U+FFFD in its place, not refused, so its episode does not fail.

const { backends, cleanup } = databaseBackends("turn-text");
afterAll(cleanup);

describe.each(backends)("a turn's text on $label", (backend) => {
  let db: Database;
  let store: Store;
  let episodeId: number;

  it("opens", async () => {
    db = await backend.open();
    store = storeFor(db.prisma);
    const file = path.join(projectRoot, "samples", "backend.jsonl");
    await store.tasks.import({ file, benchmark: "backend", name: "turn-text" });
    const taskIds = (await store.tasks.list({ benchmark: "backend", pageSize: 1 })).items.map((t) => t.id);
    const run = await store.runs.insert({
      name: "turn-text",
      benchmark: "backend",
      config: { benchmark: "backend", selector: "all", taskIds, bestOf: 1 } as never,
    });
    await store.episodes.ensure(run.id, taskIds, 1);
    episodeId = (await store.episodes.unfinished(run.id))[0]!.id;
  }, 120_000);
  afterAll(() => db?.close());

  it("keeps a turn whose content, raw output and prompt hold NUL, with U+FFFD in its place", async () => {
    const claim = (await store.episodes.claim(episodeId, "owner", 60_000))!;
    await store.episodes.appendTurn(
      episodeId,
      {
        index: 0,
        role: "agent",
        content: "def f():\u0000 return 1",
        rawOutput: "raw\u0000",
        prompt: [{ role: "user", content: "ask\u0000" }],
      },
      claim,
    );
    const [turn] = await store.episodes.turns(episodeId);
    expect(turn?.content).toBe("def f():\uFFFD return 1");
    expect(turn?.rawOutput).toBe("raw\uFFFD");
    expect(turn?.prompt).toEqual([{ role: "user", content: "ask\uFFFD" }]);
  });

  it("leaves a backslash followed by u0000 as written: only the character itself is replaced", async () => {
    const claim = (await store.episodes.claim(episodeId, "owner", 60_000))!;
    await store.episodes.appendTurn(episodeId, { index: 1, role: "simulator", content: "print('\\u0000')" }, claim);
    const turns = await store.episodes.turns(episodeId);
    expect(turns[1]?.content).toBe("print('\\u0000')");
  });
});
