import { createHash } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import type { ImageSize } from "../../colbench/placeholder-url";

// The picture a placeholder URL is answered with offline, by the renderer and by the studio's
// previews alike: a smooth gradient whose colours come from the URL, so the same URL always gives
// the same pixels and two pages that use the same photo get the same image.

/** A deterministic PNG of the given size: a left-to-right blend of two colours derived from `url`. */
export function placeholderPng(url: string, size: ImageSize): Buffer {
  const seed = createHash("sha256").update(url).digest();
  const { width, height } = size;
  // Every row is the same, so rows after the first are stored with PNG's "Up" filter as zeros:
  // the file is tiny and cheap to make at any size (the naive render loop makes one per request).
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height);
  raw[0] = 0; // first row unfiltered
  for (let x = 0; x < width; x++) {
    const t = width > 1 ? x / (width - 1) : 0;
    for (let c = 0; c < 3; c++) raw[1 + x * 3 + c] = Math.round(seed[c]! + (seed[c + 3]! - seed[c]!) * t);
  }
  for (let y = 1; y < height; y++) raw[y * stride] = 2;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, adaptive filtering, no interlace
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: 6 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
