import { describe, expect, it } from "vitest";
import { seeded } from "../../../gpu/testing/random";
import { centerCrop, clipResizeCropPixels, shortestEdgeSize } from "./clip-preprocess";
import { resizeBicubic, resizeBicubicCrop, type Pixels8 } from "./pil-resize";

// The crop-only resize against the whole-image resize (whose Pillow parity clip.test.ts pins) then
// the crop: byte for byte, for images taller, wider, smaller and the size already, RGB and RGBA.

function image(width: number, height: number, channels: 3 | 4, seed: number): Pixels8 {
  const random = seeded(seed);
  const data = new Uint8Array(width * height * channels);
  // Smooth areas with hard edges, as screenshots have, and noise.
  for (let i = 0; i < data.length; i++) data[i] = (i / channels) % width < width / 3 ? 240 : Math.floor(random() * 256);
  return { width, height, channels, data };
}

const rgb = (img: Pixels8) => ({
  width: img.width,
  height: img.height,
  data: img.channels === 3 ? img.data : img.data.filter((_, i) => i % 4 !== 3),
});

describe("resizeBicubicCrop", () => {
  it.each([
    [1366, 3000, 3],
    [1366, 320, 4],
    [1280, 800, 3],
    [224, 600, 4],
    [600, 224, 3],
    [224, 224, 3],
    [100, 60, 4],
    [37, 300, 3],
  ] as const)("equals the whole resize then the centre crop for %ix%i (%i channels)", (width, height, channels) => {
    const src = image(width, height, channels, width * 7 + height);
    const [w, h] = shortestEdgeSize(width, height, 224);
    const whole = centerCrop(resizeBicubic(rgb(src), w, h), 224, 224);
    const crop = clipResizeCropPixels(src, 224);
    expect([crop.width, crop.height]).toEqual([224, 224]);
    expect(Buffer.compare(Buffer.from(crop.data), Buffer.from(whole.data))).toBe(0);
  });

  it("equals the whole resize for any box, not only the centre", () => {
    const src = image(500, 700, 3, 3);
    const whole = resizeBicubic(src, 160, 224);
    const crop = resizeBicubicCrop(src, 160, 224, { left: 0, top: 100, width: 37, height: 124 });
    for (let y = 0; y < 124; y++) {
      expect(
        Buffer.compare(
          Buffer.from(crop.data.subarray(y * 37 * 3, (y + 1) * 37 * 3)),
          Buffer.from(whole.data.subarray((100 + y) * 160 * 3, ((100 + y) * 160 + 37) * 3)),
        ),
      ).toBe(0);
    }
  });

  it("refuses a box outside the resized image", () => {
    expect(() => resizeBicubicCrop(image(50, 50, 3, 1), 40, 40, { left: 10, top: 0, width: 40, height: 40 })).toThrow(
      /cannot crop 40x40 at 10,0 from 40x40/,
    );
  });
});
