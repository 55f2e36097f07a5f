import { describe, expect, it } from "vitest";
import { jsonBody, MAX_JSON_BYTES, refuseBody } from "./guard";

const check = (method: string, headers: Record<string, string>) => refuseBody(method, (name) => headers[name]);

describe("refuseBody", () => {
  it("lets JSON and empty bodies through, and every read", () => {
    expect(check("POST", { "content-type": "application/json", "content-length": "20" })).toBeNull();
    expect(check("POST", { "content-type": "application/json; charset=utf-8", "content-length": "20" })).toBeNull();
    // Stop and Resume send no body at all.
    expect(check("POST", {})).toBeNull();
    expect(check("GET", { "content-type": "text/plain", "content-length": String(MAX_JSON_BYTES * 2) })).toBeNull();
  });

  it("refuses bodies that are not JSON, and JSON over the size limit", () => {
    expect(check("POST", { "content-type": "text/plain", "content-length": "5" })?.status).toBe(415);
    expect(
      check("delete", { "content-type": "application/x-www-form-urlencoded", "content-length": "5" })?.status,
    ).toBe(415);
    expect(check("POST", { "content-length": "5" })?.status).toBe(415);
    expect(check("PATCH", { "content-type": "application/jsonx" })?.status).toBe(415);
    expect(
      check("POST", { "content-type": "application/json", "content-length": String(MAX_JSON_BYTES + 1) }),
    ).toMatchObject({ status: 413, error: expect.stringContaining(String(MAX_JSON_BYTES)) as unknown });
    expect(check("POST", { "content-type": "application/json", "content-length": String(MAX_JSON_BYTES) })).toBeNull();
  });
});

describe("jsonBody", () => {
  it("reads a chunked body up to the limit and answers 413 past it", async () => {
    const chunked = (text: string) =>
      new Request("http://x/", { method: "POST", body: new Blob([text]).stream(), duplex: "half" } as RequestInit & {
        duplex: "half";
      });
    expect(await jsonBody(chunked('{"a":1}'), 100)).toEqual({ ok: true, value: { a: 1 } });
    expect(await jsonBody(chunked("not json"), 100)).toEqual({ ok: true, value: null });
    const over = await jsonBody(chunked(JSON.stringify({ text: "x".repeat(200) })), 100);
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.response.status).toBe(413);
  });
});
