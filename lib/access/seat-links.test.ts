import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/open";
import { applyMigrations, migrationNames } from "../db/migrate";
import { projectRoot } from "../paths";
import { storeFor, type Store } from "../store";
import { studioHostNames } from "./host";
import { gated } from "./http";
import { issueSeatLink, seatKeyStatus } from "./seat-links";
import { hashToken } from "./tokens";
import { addUser, signIn } from "./users";
import { VIEWER_HEADER } from "./viewer";

// Seat links through the real gate on a real store (embedded PGlite): a link asks before it seats
// anyone, only the studio's own confirmation sets the seat's cookie, that cookie opens its own seat
// only, and an expired or revoked key opens nothing, as a link or as a cookie.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-seat-links-"));
let db: Database;
let store: Store;
let server: http.Server;
let base = "";
let episodeId = 0;
const seen: Array<{ url: string; viewer: unknown }> = [];

beforeAll(async () => {
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  store = storeFor(db.prisma);
  await store.tasks.import({
    file: path.join(projectRoot, "samples", "backend.jsonl"),
    benchmark: "backend",
    name: "samples",
  });
  const task = (await store.tasks.list({ benchmark: "backend" })).items[0]!;
  const run = await db.prisma.run.create({
    data: {
      name: "two people",
      benchmark: "backend",
      kind: "played",
      config: { agent: { human: true }, simulator: { human: true } },
    },
  });
  await store.episodes.ensure(run.id, [task.id], 1, true);
  episodeId = (await store.episodes.first(run.id))!;
  // Shared mode (not loopback): nobody is admin by sitting at the machine.
  server = http.createServer((req, res) =>
    gated(store, { loopback: false, hosts: studioHostNames({ bound: "127.0.0.1" }) }, (inner, out) => {
      seen.push({ url: inner.url ?? "", viewer: JSON.parse(String(inner.headers[VIEWER_HEADER])) });
      out.end("next");
    })(req, res),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${url}`,
      { method: options.method ?? "GET", headers: options.headers ?? {} },
      (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const keyOf = (url: string) => new URL(url, base).searchParams.get("key")!;
const pathOf = (url: string) => url.split("?")[0]!;

/** The confirming POST a browser sends from the link's page (same origin), or from elsewhere. */
const confirm = (
  url: string,
  key: string,
  from: { site: string; origin: string } = { site: "same-origin", origin: base },
) =>
  request(pathOf(url), {
    method: "POST",
    headers: { origin: from.origin, "sec-fetch-site": from.site, "content-type": "application/x-www-form-urlencoded" },
    body: `key=${encodeURIComponent(key)}`,
  });

/** Everything an answer hands the browser: status line aside, its headers (cookies, Location) and body. */
const everything = (answers: Answer[]) => answers.map((a) => `${JSON.stringify(a.headers)}\n${a.body}`).join("\n");

describe("seat links through the gate", () => {
  it("ask before they seat anyone: a link opened or posted from another site sets no cookie", async () => {
    const link = await issueSeatLink(store, episodeId, "agent");
    // Opened as a browser follows another site's link or script: the question, and no cookie.
    for (const site of [undefined, "cross-site", "same-origin", "none"]) {
      const shown = await request(link.url, { headers: site ? { "sec-fetch-site": site } : {} });
      expect(shown.status, String(site)).toBe(200);
      expect(shown.headers["set-cookie"], String(site)).toBeUndefined();
      expect(shown.body).toContain(`Take the agent&#39;s seat of episode #${episodeId}?`);
      expect(shown.body).toContain('data-testid="confirm-seat"');
      expect(shown.headers["cache-control"]).toBe("no-store");
    }
    // Another site's form posting the key: refused before the gate looks at it, and no cookie.
    for (const from of [
      { site: "cross-site", origin: "http://evil.example" },
      { site: "same-site", origin: "http://sub.127.0.0.1.example" },
      { site: "cross-site", origin: "null" },
      { site: "same-origin", origin: "http://evil.example" },
    ]) {
      const posted = await confirm(link.url, keyOf(link.url), from);
      expect(posted.status, JSON.stringify(from)).toBe(403);
      expect(posted.headers["set-cookie"]).toBeUndefined();
    }
    expect((await store.seats.list(episodeId)).find((l) => l.id === link.id)!.openedAt).toBeNull();
    // The control: the studio's own page confirming takes the seat.
    const taken = await confirm(link.url, keyOf(link.url));
    expect(taken.status).toBe(303);
    expect(taken.headers.location).toBe(`/play/${episodeId}/agent`);
    expect(String(taken.headers["set-cookie"])).toMatch(new RegExp(`^colbench_seat_${episodeId}_agent=`));
    expect((await store.seats.list(episodeId)).find((l) => l.id === link.id)!.openedAt).not.toBeNull();
  });

  it("give the collaborator nothing of the agent's seat, and the agent nothing of the collaborator's", async () => {
    const agent = await issueSeatLink(store, episodeId, "agent");
    const collaborator = await issueSeatLink(store, episodeId, "simulator");
    const sides = [
      {
        mine: collaborator,
        other: agent,
        page: `/play/${episodeId}/collaborator`,
        otherPage: `/play/${episodeId}/agent`,
        cookie: `colbench_seat_${episodeId}_simulator`,
      },
      {
        mine: agent,
        other: collaborator,
        page: `/play/${episodeId}/agent`,
        otherPage: `/play/${episodeId}/collaborator`,
        cookie: `colbench_seat_${episodeId}_agent`,
      },
    ];
    for (const side of sides) {
      const answers: Answer[] = [];
      answers.push(await request(side.mine.url));
      const taken = await confirm(side.mine.url, keyOf(side.mine.url));
      answers.push(taken);
      const cookies = ([] as string[]).concat(taken.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]!);
      expect(cookies.map((c) => c.split("=")[0])).toEqual([side.cookie]);
      const jar = cookies.join("; ");
      // What this seat may open goes through; the other seat's page is refused; its own cookie opens only its own seat.
      for (const url of [
        side.page,
        `/api/episodes/${episodeId}/events?seat=${side.cookie.endsWith("agent") ? "agent" : "simulator"}`,
      ]) {
        const opened = await request(url, { headers: { cookie: jar } });
        answers.push(opened);
        expect(opened.body, url).toBe("next");
      }
      expect(seen.at(-1)!.viewer).toEqual({
        kind: "seats",
        seats: [{ episodeId, seat: side.cookie.endsWith("agent") ? "agent" : "simulator" }],
      });
      for (const url of [side.otherPage, `/api/episodes/${episodeId}/seat-links`, `/episodes/${episodeId}`]) {
        const refused = await request(url, { headers: { cookie: jar } });
        answers.push(refused);
        expect(refused.status, url).toBe(403);
      }
      // The other seat's key at this seat's address is no key here; it sets nothing.
      const crossed = await request(`${side.page}?key=${encodeURIComponent(keyOf(side.other.url))}`, {
        headers: { cookie: jar },
      });
      expect(crossed.status).toBe(401);
      expect(crossed.headers["set-cookie"]).toBeUndefined();
      const crossedPost = await confirm(side.page, keyOf(side.other.url));
      expect(crossedPost.status).toBe(401);
      expect(crossedPost.headers["set-cookie"]).toBeUndefined();
      // Nothing this seat's browser was handed carries the other seat's key or its hash.
      const handed = everything(answers);
      expect(handed).toContain(keyOf(side.mine.url));
      for (const secret of [
        keyOf(side.other.url),
        encodeURIComponent(keyOf(side.other.url)),
        hashToken(keyOf(side.other.url)),
      ])
        expect(handed).not.toContain(secret);
      expect(handed).not.toMatch(new RegExp(`${side.otherPage}\\?key=`));
    }
  });

  it("refuse an expired key and a revoked one, as a link and as the cookie it became", async () => {
    const expiring = await issueSeatLink(store, episodeId, "simulator");
    const taken = await confirm(expiring.url, keyOf(expiring.url));
    const cookie = String(taken.headers["set-cookie"]).split(";")[0]!;
    // The cookie lives no longer than its key.
    const expires = Date.parse(/Expires=([^;]+)/.exec(String(taken.headers["set-cookie"]))![1]!);
    expect(Math.abs(expires - expiring.expiresAt.getTime())).toBeLessThan(2000);
    expect((await request(`/play/${episodeId}/collaborator`, { headers: { cookie } })).body).toBe("next");

    await db.prisma.seatToken.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const shown = await request(expiring.url);
    expect(shown.status).toBe(401);
    expect(shown.body).toContain("expired");
    expect(shown.body).not.toContain("confirm-seat");
    expect(shown.headers["set-cookie"]).toBeUndefined();
    const posted = await confirm(expiring.url, keyOf(expiring.url));
    expect(posted.status).toBe(401);
    expect(posted.headers["set-cookie"]).toBeUndefined();
    // A browser that took the seat before is out too: nobody, asked to sign in.
    expect((await request(`/play/${episodeId}/collaborator`, { headers: { cookie } })).status).toBe(401);
    expect(
      (
        await request(`/api/episodes/${episodeId}/move`, {
          method: "POST",
          headers: { cookie, "content-type": "application/json" },
          body: '{"role":"simulator","text":"hi"}',
        })
      ).status,
    ).toBe(401);
    expect(await store.seats.byToken(hashToken(keyOf(expiring.url)))).toBeNull();

    // Revoked one by one: the other key of the same seat still opens it until it is revoked too.
    const first = await issueSeatLink(store, episodeId, "agent");
    const second = await issueSeatLink(store, episodeId, "agent");
    const firstCookie = String((await confirm(first.url, keyOf(first.url))).headers["set-cookie"]).split(";")[0]!;
    expect(await store.seats.revoke(episodeId, first.id)).toBe(1);
    expect(await store.seats.revoke(episodeId, first.id)).toBe(0);
    expect((await request(`/play/${episodeId}/agent`, { headers: { cookie: firstCookie } })).status).toBe(401);
    const revoked = await request(first.url);
    expect(revoked.status).toBe(401);
    expect(revoked.body).toContain("revoked");
    expect((await confirm(first.url, keyOf(first.url))).status).toBe(401);
    expect((await request(second.url)).status).toBe(200);
    expect(await store.seats.revoke(episodeId)).toBeGreaterThanOrEqual(1);
    expect((await request(second.url)).status).toBe(401);
    const listed = await store.seats.list(episodeId);
    expect(listed.filter((l) => [first.id, second.id].includes(l.id)).map((l) => seatKeyStatus(l))).toEqual([
      "revoked",
      "revoked",
    ]);
    expect(listed.find((l) => l.id === expiring.id) && seatKeyStatus(listed.find((l) => l.id === expiring.id)!)).toBe(
      "expired",
    );
    // Every key of the episode is listed, never with its hash.
    expect(JSON.stringify(listed)).not.toContain(hashToken(keyOf(first.url)));
  });

  it("last the sign-in links' week unless told otherwise, and a signed-in researcher's link only loses its key", async () => {
    const week = await issueSeatLink(store, episodeId, "agent");
    expect(Math.round((week.expiresAt.getTime() - Date.now()) / 3600_000)).toBe(7 * 24);
    const day = await issueSeatLink(store, episodeId, "agent", 1);
    expect(Math.round((day.expiresAt.getTime() - Date.now()) / 3600_000)).toBe(24);
    await expect(issueSeatLink(store, episodeId, "agent", 0)).rejects.toThrow(/between 0 and 365/);
    // A researcher opens every seat as themselves: their browser gets no seat cookie, the address loses the key.
    const { token } = await addUser(store, "res", "researcher");
    const session = (await signIn(store, token))!.session;
    const opened = await request(`${day.url}&tab=2`, { headers: { cookie: `colbench_session=${session}` } });
    expect(opened.status).toBe(303);
    expect(opened.headers.location).toBe(`/play/${episodeId}/agent?tab=2`);
    expect(opened.headers["set-cookie"]).toBeUndefined();
    expect((await store.seats.list(episodeId)).find((l) => l.id === day.id)!.openedAt).toBeNull();
  });
});

describe("seat keys made before keys expired", () => {
  it("get a week from the migration rather than none, and keep working for it", async () => {
    const old = path.join(dir, "old");
    const names = migrationNames();
    const before = names.slice(0, names.indexOf("20261128073658_seat_link_expiry"));
    expect(before.length).toBeGreaterThan(10);
    const oldDb = await openDatabase({ pgliteDir: old, url: "", migrate: false });
    try {
      await applyMigrations(oldDb.factory, undefined, before);
      // Tasks, runs and episodes have the same shape on both sides of the migration.
      const oldStore = storeFor(oldDb.prisma);
      await oldStore.tasks.import({
        file: path.join(projectRoot, "samples", "backend.jsonl"),
        benchmark: "backend",
        name: "samples",
      });
      const task = (await oldStore.tasks.list({ benchmark: "backend" })).items[0]!;
      // In SQL: today's client writes today's Run columns (notes, tags), which this older schema lacks.
      const [run] = await oldDb.prisma.$queryRawUnsafe<Array<{ id: number }>>(
        `INSERT INTO "Run" ("name", "benchmark", "kind", "config", "updatedAt") VALUES ($1, $2, 'played', $3::jsonb, now()) RETURNING "id"`,
        "old play",
        "backend",
        JSON.stringify({ agent: { human: true }, simulator: { human: true } }),
      );
      await oldStore.episodes.ensure(run!.id, [task.id], 1, true);
      const episode = (await oldStore.episodes.first(run!.id))!;
      for (const [key, seat] of [
        ["old-agent-key", "agent"],
        ["old-collaborator-key", "simulator"],
      ]) {
        await oldDb.prisma.$executeRawUnsafe(
          `INSERT INTO "SeatToken" ("tokenHash", "episodeId", "seat", "createdAt") VALUES ($1, $2, $3::"TurnRole", now() - interval '90 days')`,
          hashToken(key!),
          episode,
          seat,
        );
      }
      const migrated = Date.now();
      expect((await applyMigrations(oldDb.factory))[0]).toBe("20261128073658_seat_link_expiry");
      const keys = await oldStore.seats.list(episode);
      expect(keys.map((k) => k.seat).sort()).toEqual(["agent", "simulator"]);
      for (const key of keys) {
        expect(key.id).toBeGreaterThan(0);
        expect(key.revokedAt).toBeNull();
        expect(Math.abs(key.expiresAt.getTime() - (migrated + 7 * 24 * 3600_000))).toBeLessThan(120_000);
      }
      // Still good for that week: the old link and its cookie keep their seat, then stop.
      expect(await oldStore.seats.byToken(hashToken("old-agent-key"))).toEqual({ episodeId: episode, seat: "agent" });
      await oldDb.prisma.seatToken.updateMany({
        where: { episodeId: episode },
        data: { expiresAt: new Date(Date.now() - 1) },
      });
      expect(await oldStore.seats.byToken(hashToken("old-agent-key"))).toBeNull();
      // New keys after the migration name their own expiry (the column keeps no default).
      const fresh = await issueSeatLink(oldStore, episode, "agent", 2);
      expect(Math.round((fresh.expiresAt.getTime() - Date.now()) / 3600_000)).toBe(48);
    } finally {
      await oldDb.close();
    }
  });
});
