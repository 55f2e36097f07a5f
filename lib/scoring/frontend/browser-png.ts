import type { RgbaImage } from "./png";

/**
 * A PNG's RGBA pixels in a page or worker, as the file holds them (no colour management, no
 * premultiplication), so CLIP's preprocessing sees what pngjs gives it in Node.
 */
export async function decodePngInBrowser(png: Blob): Promise<RgbaImage> {
  const bitmap = await createImageBitmap(png, { colorSpaceConversion: "none", premultiplyAlpha: "none" });
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) throw new Error("no 2D canvas to decode the screenshot with");
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  const data = context.getImageData(0, 0, canvas.width, canvas.height, { colorSpace: "srgb" }).data;
  return {
    width: canvas.width,
    height: canvas.height,
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  };
}
