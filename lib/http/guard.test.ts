import { describe, expect, it } from "vitest";
import { jsonBody, MAX_JSON_BYTES, refuseMutation } from "./guard";

const origin = "http://127.0.0.1:3000";
const check = (method: string, headers: Record<string, string>) => refuseMutation({ method, origin, headers: new Headers(headers) });

describe("refuseMutation", () => {
  it("lets the studio's own pages and scripts through", () => {
    expect(check("POST", { "sec-fetch-site": "same-origin", origin, "content-type": "application/json", "content-length": "20" })).toBeNull();
    expect(check("POST", { "content-type": "application/json; charset=utf-8", "content-length": "20" })).toBeNull();
    // Stop and Resume send no body at all.
    expect(check("POST", { "sec-fetch-site": "same-origin", origin })).toBeNull();
    expect(check("GET", { "sec-fetch-site": "cross-site", origin: "http://evil.example" })).toBeNull();
  });

  it("refuses cross-site requests by Sec-Fetch-Site or by Origin", () => {
    expect(check("POST", { "sec-fetch-site": "cross-site", "content-type": "text/plain" })?.status).toBe(403);
    expect(check("POST", { "sec-fetch-site": "same-site", "content-type": "application/json" })?.status).toBe(403);
    expect(check("DELETE", { origin: "http://evil.example" })).toMatchObject({ status: 403, error: expect.stringContaining("http://evil.example") });
    expect(check("POST", { origin: "http://127.0.0.1:3001", "content-type": "application/json" })?.status).toBe(403);
    // "Origin: null" (what a no-referrer page may send) passes only when the browser says same-origin.
    expect(check("POST", { origin: "null", "sec-fetch-site": "same-origin", "content-type": "application/json" })).toBeNull();
    expect(check("POST", { origin: "null", "content-type": "application/json" })?.status).toBe(403);
  });

  it("refuses bodies that are not JSON, and JSON over the size limit", () => {
    expect(check("POST", { "content-type": "text/plain", "content-length": "5" })?.status).toBe(415);
    expect(check("POST", { "content-type": "application/x-www-form-urlencoded", "content-length": "5" })?.status).toBe(415);
    expect(check("POST", { "content-length": "5" })?.status).toBe(415);
    expect(check("POST", { "content-type": "application/json", "content-length": String(MAX_JSON_BYTES + 1) })).toMatchObject({ status: 413, error: expect.stringContaining(String(MAX_JSON_BYTES)) });
  });
});

describe("jsonBody", () => {
  it("reads a chunked body up to the limit and answers 413 past it", async () => {
    const chunked = (text: string) =>
      new Request("http://x/", { method: "POST", body: new Blob([text]).stream(), duplex: "half" } as RequestInit & { duplex: "half" });
    expect(await jsonBody(chunked('{"a":1}'), 100)).toEqual({ ok: true, value: { a: 1 } });
    expect(await jsonBody(chunked("not json"), 100)).toEqual({ ok: true, value: null });
    const over = await jsonBody(chunked(JSON.stringify({ text: "x".repeat(200) })), 100);
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.response.status).toBe(413);
  });
});
