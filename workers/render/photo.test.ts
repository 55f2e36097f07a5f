import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultChromium, RenderPool } from "../../lib/scoring/frontend/render";
import { decodePng } from "../../lib/scoring/frontend/png";
import { placeholderPhotoAt } from "../../lib/scoring/frontend/placeholder-photo";
import { existsSync } from "node:fs";
import { PlaceholderPhotos } from "./photo";

// The published placeholder photo served as picsum serves /id/48/W/H: centre-cropped to the
// requested aspect, then resized. A stand-in photo of picsum 48's size (5000x3333) in three
// vertical bands (red, green, blue) shows which part of it each request gets.

const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const BLUE = [0, 0, 255];

async function bands(): Promise<Buffer> {
  const w = 5000;
  const h = 3333;
  const raw = Buffer.alloc(w * h * 3);
  for (let x = 0; x < w; x++) {
    const c = x < w / 3 ? RED : x < (2 * w) / 3 ? GREEN : BLUE;
    for (let y = 0; y < h; y++) raw.set(c, (y * w + x) * 3);
  }
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

async function pixels(jpeg: Buffer) {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [
    ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
  ];
  return { width: info.width, height: info.height, at };
}

const near = (got: number[], want: number[]) => got.every((v, i) => Math.abs(v - want[i]!) < 40);

let dir: string;
let file: string;
let photos: PlaceholderPhotos;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "colbench-photo-"));
  file = path.join(dir, "48.jpg");
  writeFileSync(file, await bands());
  photos = PlaceholderPhotos.fromFile(file);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the published placeholder photo", () => {
  it("a square request gets the middle of the photo: cropped to the aspect, then resized", async () => {
    const img = await pixels(await photos.image({ width: 400, height: 400 }));
    expect([img.width, img.height]).toEqual([400, 400]);
    // 5000x3333 scaled to cover 400x400 is 600 wide: the middle 400 columns are the green third and a sixth of each other band.
    expect(near(img.at(30, 200), RED)).toBe(true);
    expect(near(img.at(200, 200), GREEN)).toBe(true);
    expect(near(img.at(370, 200), BLUE)).toBe(true);
    expect(near(img.at(120, 200), GREEN)).toBe(true);
  });

  it("a request of the photo's own aspect gets all of it, and the same request the same bytes", async () => {
    const a = await photos.image({ width: 300, height: 200 });
    const img = await pixels(a);
    expect([img.width, img.height]).toEqual([300, 200]);
    expect(near(img.at(5, 100), RED)).toBe(true);
    expect(near(img.at(294, 100), BLUE)).toBe(true);
    expect((await photos.image({ width: 300, height: 200 })).equals(a)).toBe(true);
  });

  it("names the file by its hash in the profile, and refuses what is not an image", () => {
    expect(placeholderPhotoAt(file).placeholders).toMatch(/^picsum-48:[0-9a-f]{12}$/);
    writeFileSync(path.join(dir, "not.jpg"), "hello");
    expect(() => placeholderPhotoAt(path.join(dir, "not.jpg"))).toThrow(/not a JPEG, PNG or WebP image/);
    expect(() => placeholderPhotoAt(path.join(dir, "missing.jpg"))).toThrow(/no such file/);
  });

  describe.skipIf(!existsSync(defaultChromium()))("in the render pool", () => {
    it("answers picsum requests with it, records it in the profile and the cache key, other hosts keep the stand-ins", async () => {
      const html = `<html><body style="margin:0"><img src="https://picsum.photos/id/48/400/400" style="display:block"><img src="https://via.placeholder.com/400" style="display:block"></body></html>`;
      const pool = await RenderPool.start({ cache: false, placeholderPhoto: file });
      const plain = await RenderPool.start({ cache: false, placeholderPhoto: null });
      try {
        const r = await pool.render(html);
        expect(r.profile.placeholders).toBe(placeholderPhotoAt(file).placeholders);
        expect(r.id).not.toBe(plain.idFor(html));
        const img = decodePng(r.png);
        const at = (x: number, y: number) => [
          ...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3),
        ];
        expect(near(at(200, 200), GREEN)).toBe(true);
        expect(near(at(30, 200), RED)).toBe(true);
        // via.placeholder.com is not picsum: its generated stand-in, the same as without the photo.
        const other = decodePng((await plain.render(html)).png);
        expect(at(200, 600)).toEqual([
          ...other.data.subarray((600 * other.width + 200) * 4, (600 * other.width + 200) * 4 + 3),
        ]);
        expect((await plain.render(html)).profile.placeholders).toBe("generated");
      } finally {
        await pool.close();
        await plain.close();
      }
    }, 60_000);
  });
});
