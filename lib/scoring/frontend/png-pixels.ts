import sharp from "sharp";
import type { Pixels8 } from "./embedders/pil-resize";
import { decodePng } from "./png";

// PNG bytes to 8-bit pixels, off the event loop where it is safe: libvips (sharp, on libuv's thread
// pool) decodes the plain 8-bit RGB and RGBA PNGs screenshots are, byte for byte as Pillow and pngjs
// do. Anything else (palettes, grey, 16-bit, an embedded ICC profile sharp would convert, chunks
// not listed below) goes through pngjs, which decodes every PNG as Pillow reads the samples.

/** Chunks before the image data that change nothing sharp returns. */
const PLAIN_CHUNKS = new Set(["IHDR", "pHYs", "tEXt", "zTXt", "iTXt", "tIME", "sRGB"]);

/** 8-bit RGB (type 2) or RGBA (type 6), with no chunk before IDAT that could alter the decoded samples. */
export function isPlainPng(png: Uint8Array): boolean {
  if (png.length < 33) return false;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (png[24] !== 8 || (png[25] !== 2 && png[25] !== 6)) return false;
  for (let at = 8; at + 8 <= png.length;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(png[at + 4]!, png[at + 5]!, png[at + 6]!, png[at + 7]!);
    if (type === "IDAT") return true;
    if (!PLAIN_CHUNKS.has(type)) return false;
    at += 12 + length;
  }
  return false;
}

export async function decodePngPixels(png: Uint8Array): Promise<Pixels8> {
  if (isPlainPng(png)) {
    try {
      const { data, info } = await sharp(png, { limitInputPixels: false }).raw().toBuffer({ resolveWithObject: true });
      if ((info.channels === 3 || info.channels === 4) && data.length === info.width * info.height * info.channels) {
        return {
          width: info.width,
          height: info.height,
          channels: info.channels,
          data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
        };
      }
    } catch {
      // pngjs below names what is wrong with the file.
    }
  }
  const img = decodePng(png);
  return { width: img.width, height: img.height, channels: 4, data: img.data };
}
