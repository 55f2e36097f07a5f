import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../store";
import { studioHostNames } from "./host";
import { gated } from "./http";
import { hashToken } from "./tokens";
import { PROTO_HEADER, VIEWER_HEADER } from "./viewer";

// The gate in front of a real HTTP server, with a store that knows one seat key and one user.

const SEAT_KEY = "seat-key-of-episode-7";
const SEAT_EXPIRES = new Date(Date.now() + 3 * 24 * 3600_000);
const ADMIN_SESSION = "session-of-an-admin";
const store = {
  sessions: {
    user: async (hash: string) => (hash === hashToken(ADMIN_SESSION) ? { id: 1, name: "boss", role: "admin" } : null),
  },
  users: { count: async () => 1 },
  seats: {
    byToken: async (hash: string) => (hash === hashToken(SEAT_KEY) ? { episodeId: 7, seat: "simulator" } : null),
    keyState: async (hash: string) =>
      hash === hashToken(SEAT_KEY)
        ? { state: "open", episodeId: 7, seat: "simulator", expiresAt: SEAT_EXPIRES }
        : { state: "unknown" },
    open: async (hash: string, seat: { episodeId: number; seat: string }) =>
      hash === hashToken(SEAT_KEY) && seat.episodeId === 7 && seat.seat === "simulator"
        ? { state: "open", episodeId: 7, seat: "simulator", expiresAt: SEAT_EXPIRES }
        : { state: "unknown" },
  },
} as unknown as Store;

let server: http.Server;
let base = "";
let trustProxy = false;
const seen: Array<{ url: string; viewer: string; proto: string }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) =>
    gated(
      store,
      { loopback: true, hosts: studioHostNames({ bound: "127.0.0.1", extra: ["studio.example.org"] }), trustProxy },
      (inner, out) => {
        seen.push({
          url: inner.url ?? "",
          viewer: String(inner.headers[VIEWER_HEADER]),
          proto: String(inner.headers[PROTO_HEADER]),
        });
        if (inner.url === "/api/boom") throw new Error("the handler behind the gate broke");
        out.end("next");
      },
    )(req, res),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** fetch() will not send a Host of our choosing; http.request will. */
function request(
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A seat link's confirmation, as its own page posts it. */
const confirmSeat = (path: string, key = SEAT_KEY, headers: Record<string, string> = {}) =>
  request(
    path,
    { origin: base, "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded", ...headers },
    "POST",
    `key=${encodeURIComponent(key)}`,
  );

describe("the gate", () => {
  it("refuses a Host that is not the studio's with 421, before anything else, with its headers", async () => {
    for (const host of ["rebind.attacker.example", "rebind.attacker.example:3000", "127.0.0.1.nip.example"]) {
      const r = await request("/api/health", { host });
      expect(r.status, host).toBe(421);
      expect(r.body).toMatch(/--allowed-host/);
      expect(r.headers["x-frame-options"]).toBe("DENY");
    }
    const before = seen.length;
    expect((await request(`/play/7/collaborator?key=${SEAT_KEY}`, { host: "rebind.attacker.example" })).status).toBe(
      421,
    );
    expect(seen.length).toBe(before);
    expect((await request("/api/health", { host: "studio.example.org" })).status).toBe(200);
    expect((await request("/api/health", { host: "localhost:1" })).status).toBe(200);
  });

  it("names the studio's icon on its own pages, so a browser asks for no /favicon.ico (a 404 in the console)", async () => {
    const refused = await request("/runs", { host: "rebind.attacker.example", accept: "text/html" });
    expect(refused.body).toContain('<link rel="icon" href="/icon.svg" type="image/svg+xml">');
  });

  it("refuses writes whose Origin or Sec-Fetch-Site is not the studio's own", async () => {
    const host = new URL(base).host;
    expect((await request("/api/runs", { origin: "http://evil.example" }, "POST")).status).toBe(403);
    expect((await request("/signin", { origin: `http://localhost:${new URL(base).port}` }, "POST")).status).toBe(403);
    expect((await request("/signin", { "sec-fetch-site": "cross-site" }, "POST")).status).toBe(403);
    expect(
      (await request("/signin", { origin: `http://${host}`, "sec-fetch-site": "same-origin" }, "POST")).status,
    ).toBe(200);
    expect((await request("/signin", {}, "POST")).status).toBe(200);
    // The studio's own form under its no-referrer policy: Origin null, but the browser says same-origin.
    expect((await request("/signin", { origin: "null", "sec-fetch-site": "same-origin" }, "POST")).status).toBe(200);
    expect((await request("/signin", { origin: "null" }, "POST")).status).toBe(403);
    expect((await request("/signin", { origin: "null", "sec-fetch-site": "cross-site" }, "POST")).status).toBe(403);
  });

  it("lets a write reach an API route only with a JSON body within the limit; pages' forms still pass", async () => {
    const admin = { cookie: `colbench_session=${ADMIN_SESSION}` };
    const before = seen.length;
    const form = await request(
      "/api/runs",
      { ...admin, "content-type": "application/x-www-form-urlencoded" },
      "POST",
      "a=b",
    );
    expect(form.status).toBe(415);
    expect((JSON.parse(form.body) as { error: string }).error).toMatch(/must be JSON/);
    expect((await request("/api/runs", { ...admin, "content-type": "text/plain" }, "PATCH", "abc")).status).toBe(415);
    const big = await request(
      "/api/runs",
      { ...admin, "content-type": "application/json" },
      "POST",
      JSON.stringify({ text: "x".repeat(1024 * 1024) }),
    );
    expect(big.status).toBe(413);
    expect((JSON.parse(big.body) as { error: string }).error).toMatch(/over the limit/);
    expect(seen.length).toBe(before);
    // JSON, no body at all (Stop, Resume), a read, and a page's own form all go on.
    expect(
      (await request("/api/runs", { ...admin, "content-type": "application/json; charset=utf-8" }, "POST", "{}")).body,
    ).toBe("next");
    expect((await request("/api/runs/1/stop", admin, "POST")).body).toBe("next");
    expect((await request("/api/runs", { ...admin, "content-type": "text/plain" })).body).toBe("next");
    expect(
      (await request("/admin/system", { ...admin, "content-type": "text/plain;charset=UTF-8" }, "POST", "[]")).body,
    ).toBe("next");
    expect(seen.length).toBe(before + 4);
    // Refused as before any of that: nobody signed in.
    expect((await request("/api/runs", { "content-type": "text/plain" }, "POST", "abc")).status).toBe(401);
  });

  it("answers nothing at Next's image optimizer, whatever URL it is given", async () => {
    const r = await request(`/_next/image?url=${encodeURIComponent("/api/renders/" + "a".repeat(64))}&w=1920&q=75`);
    expect(r.status).toBe(404);
    expect(r.headers["content-type"]).not.toMatch(/image/);
  });

  it("asks before it swaps a seat key for an httpOnly cookie of that seat, which the address never carries", async () => {
    const before = seen.length;
    const shown = await request(`/play/7/collaborator?key=${SEAT_KEY}&tab=2`);
    expect(shown.status).toBe(200);
    expect(shown.headers["set-cookie"]).toBeUndefined();
    expect(shown.body).toContain('action="/play/7/collaborator?tab=2"');
    expect(shown.body).toContain(`name="key" value="${SEAT_KEY}"`);
    // The page drops the key from the address bar (and history) while its form keeps it.
    expect(shown.body).toContain("history.replaceState");
    expect(shown.headers["referrer-policy"]).toBe("no-referrer");
    expect(seen.length).toBe(before);
    const r = await confirmSeat("/play/7/collaborator?tab=2");
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe("/play/7/collaborator?tab=2");
    const cookie = r.headers["set-cookie"]![0]!;
    expect(cookie).toMatch(/^colbench_seat_7_simulator=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/);
    expect(cookie).toContain(`Expires=${SEAT_EXPIRES.toUTCString()}`);
    const opened = await request("/play/7/collaborator", { cookie: cookie.split(";")[0]! });
    expect(opened.status).toBe(200);
    expect(JSON.parse(seen.at(-1)!.viewer)).toEqual({ kind: "seats", seats: [{ episodeId: 7, seat: "simulator" }] });
    // A wrong key is no key: it opens nothing, asked or confirmed.
    expect((await request("/play/7/collaborator?key=nope")).status).toBe(401);
    expect((await confirmSeat("/play/7/collaborator", "nope")).status).toBe(401);
    expect((await confirmSeat("/play/7/agent")).status).toBe(401);
    expect((await request("/play/7/collaborator")).status).toBe(401);
  });

  it("marks the seat cookie Secure behind HTTPS only when the operator trusts the proxy", async () => {
    const plain = await confirmSeat("/play/7/collaborator", SEAT_KEY, { "x-forwarded-proto": "https" });
    expect(plain.headers["set-cookie"]![0]).not.toMatch(/Secure/);
    trustProxy = true;
    try {
      const proxied = await confirmSeat("/play/7/collaborator", SEAT_KEY, {
        "x-forwarded-proto": "https",
        origin: base.replace("http:", "https:"),
      });
      expect(proxied.headers["set-cookie"]![0]).toMatch(/Secure/);
      await request("/api/health", { "x-forwarded-proto": "https" });
      expect(seen.at(-1)!.proto).toBe("https");
    } finally {
      trustProxy = false;
    }
    await request("/api/health", { "x-forwarded-proto": "https", [PROTO_HEADER]: "https" });
    expect(seen.at(-1)!.proto).toBe("http");
  });

  it("answers 500 when the handler behind it throws, and goes on serving", async () => {
    const admin = { cookie: `colbench_session=${ADMIN_SESSION}` };
    const broken = await request("/api/boom", admin);
    expect(broken.status).toBe(500);
    expect((JSON.parse(broken.body) as { error: string }).error).toMatch(/could not answer/);
    expect((await request("/api/health", admin)).body).toBe("next");
  });
});
