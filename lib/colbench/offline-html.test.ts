import { describe, expect, it } from "vitest";
import { previewDocument, previewNotes } from "./offline-html";

describe("previewDocument", () => {
  const page =
    '<!DOCTYPE html><html><head><link href="https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css" rel="stylesheet"></head><body><img src="https://picsum.photos/id/48/300/200"></body></html>';
  it("puts its policy first, after the doctype, and points assets at the studio", () => {
    const doc = previewDocument(page, "http://127.0.0.1:3000");
    expect(doc.startsWith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(doc).toContain(
      "default-src 'none'; style-src http://127.0.0.1:3000 'unsafe-inline'; img-src http://127.0.0.1:3000 data:",
    );
    expect(doc).toContain('href="/vendor/tailwind-2.2.19.min.css"');
    expect(doc).toContain(`src="/api/placeholder?url=${encodeURIComponent("https://picsum.photos/id/48/300/200")}"`);
    expect(doc).not.toContain("cdn.jsdelivr.net");
  });
  it("prepends the policy to a page without a doctype", () => {
    expect(previewDocument("<p>hi</p>", "http://x")).toMatch(
      /^<meta http-equiv="Content-Security-Policy"[^>]*><p>hi<\/p>$/,
    );
  });
  it("answers every placeholder service the renderer answers, the way the renderer does", () => {
    const doc = previewDocument(
      '<img src="https://placehold.co/600x400?text=a&amp;b"><div style="background:url(https://example.com/x.png)"></div>',
      "http://x",
    );
    expect(doc).toContain(`/api/placeholder?url=${encodeURIComponent("https://placehold.co/600x400?text=a&b")}`);
    expect(doc).toContain("https://example.com/x.png");
  });
});

describe("previewNotes", () => {
  it("says where a preview may differ from what the scorer rendered", () => {
    const notes = previewNotes(
      '<script src="https://cdn.tailwindcss.com"></script><script>document.body.className="x"</script><img src="https://example.com/a.png"><img src="https://picsum.photos/200">',
    );
    expect(notes).toHaveLength(3);
    expect(notes[0]).toMatch(/^1 inline script: the scorer's browser runs them/);
    expect(notes[1]).toMatch(/^1 script from elsewhere/);
    expect(notes[2]).toMatch(/^1 other address/);
    expect(
      previewNotes(
        '<link href="https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css" rel="stylesheet"><img src="https://picsum.photos/200">',
      ),
    ).toEqual([]);
  });
});
