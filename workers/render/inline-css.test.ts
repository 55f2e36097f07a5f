import { describe, expect, it } from "vitest";
import { inlineTailwind } from "./inline-css";

const CDN = "https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css";
const sheet = (file: string) => `/* ${file} */ .p-4{padding:1rem}`;
const decoded = (html: string) =>
  [...html.matchAll(/data:text\/css;charset=utf-8;base64,([^"]+)/g)].map((m) =>
    Buffer.from(m[1]!, "base64").toString(),
  );

describe("inlineTailwind", () => {
  it("writes the sheet into the <link> however its href is quoted or encoded", () => {
    for (const link of [
      `<link rel="stylesheet" href="${CDN}">`,
      `<LINK href='${CDN}' rel=stylesheet>`,
      `<link rel=stylesheet href=${CDN}>`,
      `<link rel="stylesheet" href="${CDN.replace(/\//g, "&#x2F;")}">`,
    ]) {
      const out = inlineTailwind(`<html><head>${link}</head><body class="p-4">x</body></html>`, sheet);
      expect(out, link).not.toBeNull();
      expect(out).not.toContain("cdn.jsdelivr.net");
      expect(decoded(out!)).toEqual(["/* tailwind.min.css */ .p-4{padding:1rem}"]);
    }
  });

  it("leaves other links, anchors to the file and pages without one alone", () => {
    expect(inlineTailwind(`<link rel="stylesheet" href="https://example.com/site.css"><p>x</p>`, sheet)).toBeNull();
    expect(inlineTailwind(`<a href="${CDN}">the stylesheet</a>`, sheet)).toBeNull();
    expect(inlineTailwind(`<p>no links</p>`, sheet)).toBeNull();
    const mixed = inlineTailwind(`<link href="https://example.com/a.css"><link href="${CDN}">`, sheet)!;
    expect(mixed).toContain('href="https://example.com/a.css"');
    expect(decoded(mixed)).toHaveLength(1);
  });

  it("does not touch a page that shows markup as text", () => {
    expect(inlineTailwind(`<textarea><link href="${CDN}"></textarea>`, sheet)).toBeNull();
    expect(inlineTailwind(`<link href="${CDN}"><xmp><link href="${CDN}"></xmp>`, sheet)).toBeNull();
  });
});
