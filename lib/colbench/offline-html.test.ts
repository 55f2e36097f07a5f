import { describe, expect, it } from "vitest";
import { previewDocument } from "./offline-html";

describe("previewDocument", () => {
  const page = '<!DOCTYPE html><html><head><link href="https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css" rel="stylesheet"></head><body><img src="https://picsum.photos/id/48/300/200"></body></html>';
  it("puts its policy first, after the doctype, and points assets at the studio", () => {
    const doc = previewDocument(page, "http://127.0.0.1:3000");
    expect(doc.startsWith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(doc).toContain("default-src 'none'; style-src http://127.0.0.1:3000 'unsafe-inline'; img-src http://127.0.0.1:3000 data:");
    expect(doc).toContain('href="/vendor/tailwind-2.2.19.min.css"');
    expect(doc).toContain('src="/api/placeholder/300/200"');
    expect(doc).not.toContain("cdn.jsdelivr.net");
  });
  it("prepends the policy to a page without a doctype", () => {
    expect(previewDocument("<p>hi</p>", "http://x")).toMatch(/^<meta http-equiv="Content-Security-Policy"[^>]*><p>hi<\/p>$/);
  });
});
