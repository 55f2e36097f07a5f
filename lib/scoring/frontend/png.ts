import { PNG } from "pngjs";

/** Width and height from a PNG's IHDR chunk, without decoding it. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.length < 24 || sig.some((b, i) => png[i] !== b)) throw new Error("not a PNG image");
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

export interface RgbaImage {
  width: number;
  height: number;
  /** Row-major RGBA, 4 bytes a pixel. */
  data: Uint8Array;
}

export function decodePng(png: Uint8Array): RgbaImage {
  const img = PNG.sync.read(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  return {
    width: img.width,
    height: img.height,
    data: new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength),
  };
}

export function encodePng(img: RgbaImage): Buffer {
  const png = new PNG({ width: img.width, height: img.height });
  Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength).copy(png.data);
  return PNG.sync.write(png);
}

let black: Buffer | null = null;

/** What ColBench scores when a page cannot be rendered: a black 224x224 image. */
export function fallbackPng(): Buffer {
  black ??= encodePng({
    width: 224,
    height: 224,
    data: new Uint8Array(224 * 224 * 4).fill(0).map((_, i) => (i % 4 === 3 ? 255 : 0)),
  });
  return black;
}

export const FALLBACK_SIZE = { width: 224, height: 224 } as const;
