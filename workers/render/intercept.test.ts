import { describe, expect, it } from "vitest";
import { classifyRequest, tailwindFile } from "./intercept";
import { placeholderSize } from "./placeholder";

describe("tailwindFile", () => {
  it("matches Tailwind 2.x on any CDN by path", () => {
    expect(tailwindFile("https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css")).toBe(
      "tailwind.min.css",
    );
    expect(tailwindFile("https://unpkg.com/tailwindcss@^2/dist/tailwind.min.css")).toBe("tailwind.min.css");
    expect(tailwindFile("https://unpkg.com/tailwindcss@%5E2.0/dist/base.min.css")).toBe("base.min.css");
    expect(tailwindFile("https://cdnjs.cloudflare.com/ajax/libs/tailwindcss/2.0.2/tailwind.min.css")).toBe(
      "tailwind.min.css",
    );
    expect(tailwindFile("https://cdn.jsdelivr.net/npm/tailwindcss@2.1.2/dist/tailwind-dark.css?x=1")).toBe(
      "tailwind-dark.css",
    );
  });

  it("leaves other versions and files alone", () => {
    expect(tailwindFile("https://cdn.jsdelivr.net/npm/tailwindcss@3.4.0/dist/tailwind.min.css")).toBeNull();
    expect(tailwindFile("https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/secret.css")).toBeNull();
    expect(tailwindFile("https://cdn.tailwindcss.com")).toBeNull();
    expect(tailwindFile("file:///npm/tailwindcss@2.2.19/dist/tailwind.min.css")).toBeNull();
  });
});

describe("placeholderSize", () => {
  it("reads the size from the URL of the usual services", () => {
    expect(placeholderSize("https://picsum.photos/id/48/1600/900")).toEqual({ width: 1600, height: 900 });
    expect(placeholderSize("https://picsum.photos/200/300?grayscale")).toEqual({ width: 200, height: 300 });
    expect(placeholderSize("https://picsum.photos/seed/abc/640/480.jpg")).toEqual({ width: 640, height: 480 });
    expect(placeholderSize("https://picsum.photos/300")).toEqual({ width: 300, height: 300 });
    expect(placeholderSize("https://picsum.photos/id/48/300/200-learning")).toEqual({ width: 300, height: 200 });
    expect(placeholderSize("https://via.placeholder.com/150")).toEqual({ width: 150, height: 150 });
    expect(placeholderSize("https://via.placeholder.com/600x400/09f/fff.png?text=Hi")).toEqual({
      width: 600,
      height: 400,
    });
    expect(placeholderSize("https://placehold.co/600x400")).toEqual({ width: 600, height: 400 });
    expect(placeholderSize("https://dummyimage.com/720x300/000/fff")).toEqual({ width: 720, height: 300 });
    expect(placeholderSize("https://placekitten.com/g/200/100")).toEqual({ width: 200, height: 100 });
  });

  it("bounds absurd sizes and ignores other hosts", () => {
    const huge = placeholderSize("https://picsum.photos/100000/100000")!;
    expect(huge.width * huge.height).toBeLessThanOrEqual(6_000_000);
    expect(placeholderSize("https://picsum.photos/0/10")).toBeNull();
    expect(placeholderSize("https://example.com/600/400")).toBeNull();
  });
});

describe("classifyRequest", () => {
  const req = (url: string, isNavigation = false, isMainFrame = true) =>
    classifyRequest({ url, isNavigation, isMainFrame }).kind;

  it("answers the stylesheet and placeholder images, refuses the rest", () => {
    expect(req("https://cdn.jsdelivr.net/npm/tailwindcss@2.2.19/dist/tailwind.min.css")).toBe("stylesheet");
    expect(req("https://picsum.photos/200/300")).toBe("image");
    expect(req("https://www.youtube.com/iframe_api")).toBe("abort");
    expect(req("http://127.0.0.1:3000/api/secret")).toBe("abort");
    expect(req("data:image/png;base64,AAAA")).toBe("continue");
  });

  it("keeps the page where it is when it navigates, and blanks frames", () => {
    expect(req("https://example.com/", true, true)).toBe("stay");
    expect(req("https://www.youtube.com/embed/x", true, false)).toBe("empty-document");
  });
});
