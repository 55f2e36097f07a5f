import { describe, expect, it } from "vitest";
import { decodePng } from "../../lib/scoring/frontend/png";
import { placeholderPng } from "./placeholder";

describe("placeholderPng", () => {
  it("draws an image of the requested size, the same for the same URL", () => {
    const a = placeholderPng("https://picsum.photos/id/1/300/200", { width: 300, height: 200 });
    const img = decodePng(a);
    expect([img.width, img.height]).toEqual([300, 200]);
    expect(placeholderPng("https://picsum.photos/id/1/300/200", { width: 300, height: 200 }).equals(a)).toBe(true);
    const other = decodePng(placeholderPng("https://picsum.photos/id/2/300/200", { width: 300, height: 200 }));
    expect(Buffer.from(other.data).equals(Buffer.from(img.data))).toBe(false);
  });

  it("handles one-pixel images", () => {
    const img = decodePng(placeholderPng("x", { width: 1, height: 1 }));
    expect([img.width, img.height]).toEqual([1, 1]);
  });
});
