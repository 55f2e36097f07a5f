import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { fixturePng } from "../testing/clip-fixtures";
import { decodePng, encodePng } from "./png";
import { decodePngPixels, isPlainPng } from "./png-pixels";

// libvips (sharp) decodes plain screenshots; the rest goes through pngjs. Either way the RGB bytes
// are pngjs's (which the CLIP parity tests pin to Pillow).

const rgbOf = (data: Uint8Array, channels: number) => Buffer.from(data.filter((_, i) => i % channels < 3));

/** A PNG with one more chunk right after IHDR (a valid CRC, so decoders read it). */
function withChunk(png: Uint8Array, type: string, body: Uint8Array): Buffer {
  const chunk = Buffer.alloc(12 + body.length);
  chunk.writeUInt32BE(body.length, 0);
  chunk.write(type, 4, "latin1");
  Buffer.from(body).copy(chunk, 8);
  chunk.writeUInt32BE(zlib.crc32(chunk.subarray(4, 8 + body.length)), 8 + body.length);
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
}

describe("decodePngPixels", () => {
  it.each(["screenshot.png", "small.png", "pil-screenshot-224.png"])("gives pngjs's RGB bytes for %s", async (name) => {
    const png = fixturePng(name);
    const ours = await decodePngPixels(png);
    const theirs = decodePng(png);
    expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
    expect(rgbOf(ours.data, ours.channels).equals(rgbOf(theirs.data, 4))).toBe(true);
  });

  it("takes 8-bit RGB and RGBA as plain, and leaves an ICC profile or a palette to pngjs", async () => {
    const rgba = { width: 3, height: 2, data: Uint8Array.from({ length: 24 }, (_, i) => (i * 37) % 256) };
    const png = encodePng(rgba);
    expect(isPlainPng(png)).toBe(true);
    const icc = withChunk(
      png,
      "iCCP",
      Buffer.concat([Buffer.from("x\0\0", "latin1"), zlib.deflateSync(Buffer.alloc(8))]),
    );
    expect(isPlainPng(icc)).toBe(false);
    const decoded = await decodePngPixels(icc);
    expect(decoded.channels).toBe(4);
    expect(Buffer.from(decoded.data).equals(Buffer.from(rgba.data))).toBe(true);
    const palette = Buffer.from(png);
    palette[25] = 3;
    expect(isPlainPng(palette)).toBe(false);
    expect(isPlainPng(Buffer.from("not a png at all, just some bytes here"))).toBe(false);
  });
});
