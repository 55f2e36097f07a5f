import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/open";
import { databaseBackends } from "../db/testing/backends";
import { projectRoot } from "../paths";
import { storeFor, type Store } from "../store";
import { hashToken } from "./tokens";
import { addUser, linkDays, renewLink, signIn } from "./users";

// Sign-in links and searches, on embedded PGlite and on a real PostgreSQL server.

const { backends, dir, cleanup } = databaseBackends("access-links");
afterAll(cleanup);

describe.each(backends)("sign-in links on $label", ({ open }) => {
  let db: Database;
  let store: Store;
  beforeAll(async () => {
    db = await open();
    store = storeFor(db.prisma);
  });
  afterAll(async () => {
    await db?.close();
  });

  it("work once: the second use, even at the same moment, makes no session", async () => {
    const { token } = await addUser(store, "once", "annotator");
    expect((await store.users.linkState(hashToken(token))).state).toBe("open");
    const [a, b] = await Promise.all([signIn(store, token), signIn(store, token)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(await signIn(store, token)).toBeNull();
    expect((await store.users.linkState(hashToken(token))).state).toBe("used");
    const session = (a ?? b)!.session;
    expect((await store.sessions.user(hashToken(session)))?.name).toBe("once");
  });

  it("expire after their lifetime (7 days unless the admin says otherwise)", async () => {
    expect(linkDays()).toBe(7);
    expect(linkDays("2")).toBe(2);
    expect(() => linkDays("0")).toThrow(/between 0 and 365/);
    const { token, expiresAt } = await addUser(store, "late", "researcher", 1);
    expect(Math.round((expiresAt.getTime() - Date.now()) / 3600_000)).toBe(24);
    await db.prisma.signInLink.update({
      where: { tokenHash: hashToken(token) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await store.users.linkState(hashToken(token))).state).toBe("expired");
    expect(await signIn(store, token)).toBeNull();
  });

  it("a new link replaces the unused one; disabling revokes links and sessions for good, enabling issues nothing", async () => {
    const { token: first } = await addUser(store, "gone", "annotator");
    const { token: second, user } = await renewLink(store, "gone");
    expect(await signIn(store, first)).toBeNull();
    const signed = await signIn(store, second);
    expect(signed).not.toBeNull();
    const { token: spare } = await renewLink(store, "gone");
    await store.users.setDisabled(user.id, true);
    expect(await store.sessions.user(hashToken(signed!.session))).toBeNull();
    await expect(renewLink(store, "gone")).rejects.toThrow(/disabled: enable them first/);
    await store.users.setDisabled(user.id, false);
    // Enabled again: the old session and the link handed out before stay dead.
    expect(await store.sessions.user(hashToken(signed!.session))).toBeNull();
    expect(await signIn(store, spare)).toBeNull();
    expect(await signIn(store, (await renewLink(store, "gone")).token)).not.toBeNull();
  });

  it("knows an agent's render by its turns or its scored answer, and a target by nothing of the sort", async () => {
    await store.tasks.import({
      file: path.join(projectRoot, "samples", "frontend.jsonl"),
      benchmark: "frontend",
      name: "renders",
    });
    const task = (await store.tasks.list({ benchmark: "frontend" })).items[0]!;
    const run = await db.prisma.run.create({
      data: {
        name: "renders",
        benchmark: "frontend",
        config: { agent: { baseUrl: "http://m/v1", model: "m" }, simulator: { baseUrl: "http://m/v1", model: "s" } },
      },
    });
    await store.episodes.ensure(run.id, [task.id], 2);
    const [one, two] = (await db.prisma.episode.findMany({ where: { runId: run.id }, orderBy: { id: "asc" } })).map(
      (e) => e.id,
    );
    const [turnRender, answerRender, targetRender] = ["a", "b", "c"].map((c) => c.repeat(64));
    await store.episodes.appendTurn(one!, {
      index: 0,
      role: "agent",
      content: "a page",
      html: "<p>x</p>",
      renderId: turnRender,
    });
    await store.episodes.finish(two!, { answer: "<p>y</p>", reward: 0.5, details: { answerRender, targetRender } });
    expect(await store.renders.answerEpisodes(turnRender!)).toEqual([one]);
    expect(await store.renders.answerEpisodes(answerRender!)).toEqual([two]);
    expect(await store.renders.answerEpisodes(targetRender!)).toEqual([]);
    expect(await store.renders.targetInMembersQueue(targetRender!, 1)).toBe(false);
    expect((await store.seats.target(two!))?.groundTruth).toBe((await store.tasks.get(task.id))!.groundTruth);
  });

  it("task search takes _, % and \\ as written, not as LIKE wildcards", async () => {
    // Three tasks that differ only where a wildcard would blur them.
    const base = JSON.parse(
      (await fs.readFile(path.join(projectRoot, "samples", "backend.jsonl"), "utf8")).split("\n")[0]!,
    ) as Record<string, unknown>;
    const file = path.join(dir, `like-${Date.now()}.jsonl`);
    const texts = ["zqx a_b zqx", "zqx axb zqx", "zqx 100% zqx", "zqx 1000 zqx", "zqx c\\d zqx", "zqx cd zqx"];
    await fs.writeFile(
      file,
      texts
        .map((t) => JSON.stringify({ ...base, problem_description: `${t}. ${base.problem_description as string}` }))
        .join("\n") + "\n",
    );
    await store.tasks.import({ file, benchmark: "backend", name: "like" });
    const hits = async (q: string) =>
      (await store.tasks.list({ q: `zqx ${q}`, pageSize: 200 })).items.map((t) => t.problemDescription.split(".")[0]);
    expect(await hits("a_b")).toEqual(["zqx a_b zqx"]);
    expect(await hits("100%")).toEqual(["zqx 100% zqx"]);
    expect(await hits("c\\d")).toEqual(["zqx c\\d zqx"]);
    expect((await hits("zqx")).length).toBe(texts.length);
  });
});
