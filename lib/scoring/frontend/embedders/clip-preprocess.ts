import type { RgbaImage } from "../png";
import { resizeBicubicCrop, type Pixels8, type Rgb8 } from "./pil-resize";

// CLIPImageProcessor's steps with its defaults for openai/clip-vit-base-patch32: convert to RGB,
// resize so the shortest side is `size` (bicubic, as Pillow does it), center-crop size x size,
// rescale by 1/255, normalise with CLIP's mean and std; channels first.

export const CLIP_MEAN = [0.48145466, 0.4578275, 0.40821073] as const;
export const CLIP_STD = [0.26862954, 0.26130258, 0.27577711] as const;

/** Pillow's convert("RGB") of an RGBA image: the alpha channel is dropped, not composited. */
export function toRgb(img: RgbaImage): Rgb8 {
  const n = img.width * img.height;
  const data = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    data[i * 3] = img.data[i * 4]!;
    data[i * 3 + 1] = img.data[i * 4 + 1]!;
    data[i * 3 + 2] = img.data[i * 4 + 2]!;
  }
  return { width: img.width, height: img.height, data };
}

/** transformers' get_resize_output_image_size(size, default_to_square=False): (width, height). */
export function shortestEdgeSize(width: number, height: number, size: number): [number, number] {
  const short = Math.min(width, height);
  const long = Math.max(width, height);
  if (short === size) return [width, height];
  const newLong = Math.trunc((size * long) / short);
  return width <= height ? [size, newLong] : [newLong, size];
}

/** transformers' center_crop for a crop no larger than the image (top/left rounded down). */
export function centerCrop(img: Rgb8, cropW: number, cropH: number): Rgb8 {
  if (cropW > img.width || cropH > img.height)
    throw new Error(`cannot crop ${cropW}x${cropH} from ${img.width}x${img.height}`);
  const top = Math.floor((img.height - cropH) / 2);
  const left = Math.floor((img.width - cropW) / 2);
  const data = new Uint8Array(cropW * cropH * 3);
  for (let y = 0; y < cropH; y++) {
    const from = ((top + y) * img.width + left) * 3;
    data.set(img.data.subarray(from, from + cropW * 3), y * cropW * 3);
  }
  return { width: cropW, height: cropH, data };
}

/** The resized and cropped uint8 image (what the model sees before rescaling). */
export function clipResizeCrop(img: RgbaImage, size: number): Rgb8 {
  return clipResizeCropPixels({ width: img.width, height: img.height, channels: 4, data: img.data }, size);
}

/**
 * The same from RGB or RGBA pixels: Pillow's convert("RGB") (alpha dropped, not composited), the
 * shortest-edge bicubic resize and the centre crop, computing only the crop.
 */
export function clipResizeCropPixels(img: Pixels8, size: number): Rgb8 {
  const [w, h] = shortestEdgeSize(img.width, img.height, size);
  if (size > w || size > h) throw new Error(`cannot crop ${size}x${size} from ${w}x${h}`);
  return resizeBicubicCrop(img, w, h, {
    left: Math.floor((w - size) / 2),
    top: Math.floor((h - size) / 2),
    width: size,
    height: size,
  });
}

/** Rescale and normalise to CLIP's input: float32 [3, size, size]. */
export function clipNormalize(img: Rgb8): Float32Array {
  const n = img.width * img.height;
  const out = new Float32Array(3 * n);
  for (let c = 0; c < 3; c++) {
    const mean = CLIP_MEAN[c]!;
    const std = CLIP_STD[c]!;
    for (let i = 0; i < n; i++) out[c * n + i] = (Math.fround(img.data[i * 3 + c]! * (1 / 255)) - mean) / std;
  }
  return out;
}

export function clipPreprocess(img: RgbaImage, size = 224): Float32Array {
  return clipNormalize(clipResizeCrop(img, size));
}
