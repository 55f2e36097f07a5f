import { readFileSync } from "node:fs";
import sharp from "sharp";
import type { ImageSize } from "./placeholder";

// The published placeholder photo (picsum.photos/id/48), served as picsum serves it. Picsum
// (github.com/DMarby/picsum-photos) answers /id/N/W/H with libvips: it takes a stored copy of the
// photo pre-sized to the next multiple of 500 px above the larger requested side (the original
// above 4500), then vips_thumbnail to W x H with crop=centre (scale until the photo covers the
// box, cut the middle out), saved as a JPEG at libvips' default quality (75), interlaced.
// sharp is libvips too; what could not be checked offline is how picsum made its pre-sized copies
// (assumed: the photo fitted inside a square of that side, as a JPEG at quality 75) and the exact
// JPEG encoder (picsum's libjpeg versus sharp's mozjpeg build with standard tables).

const STEP = 500;
const LARGEST_PRESIZED = 4_500;
const MEMO_BYTES = 32 * 1024 * 1024;

export class PlaceholderPhotos {
  private readonly memo = new Map<string, Promise<Buffer>>();
  private readonly presized = new Map<number, Promise<Buffer>>();
  private bytes = 0;

  constructor(private readonly original: Buffer) {}

  static fromFile(file: string): PlaceholderPhotos {
    return new PlaceholderPhotos(readFileSync(file));
  }

  /** The JPEG picsum would send for a W x H request. */
  image(size: ImageSize): Promise<Buffer> {
    const key = `${size.width}x${size.height}`;
    let hit = this.memo.get(key);
    if (hit) return hit;
    hit = this.make(size);
    this.memo.set(key, hit);
    void hit.then(
      (b) => {
        this.bytes += b.length;
        for (const [k, v] of this.memo) {
          if (this.bytes <= MEMO_BYTES || k === key) break;
          this.memo.delete(k);
          void v.then((x) => (this.bytes -= x.length));
        }
      },
      () => this.memo.delete(key),
    );
    return hit;
  }

  private source(size: ImageSize): Promise<Buffer> {
    const side = Math.max(Math.ceil(size.width / STEP) * STEP, Math.ceil(size.height / STEP) * STEP);
    if (side > LARGEST_PRESIZED) return Promise.resolve(this.original);
    let p = this.presized.get(side);
    if (!p) {
      p = sharp(this.original)
        .rotate()
        .resize(side, side, { fit: "inside", withoutEnlargement: true })
        .jpeg({ quality: 75 })
        .toBuffer();
      this.presized.set(side, p);
    }
    return p;
  }

  private async make(size: ImageSize): Promise<Buffer> {
    const source = await this.source(size);
    return sharp(source)
      .rotate()
      .resize(size.width, size.height, { fit: "cover", position: "centre", kernel: "lanczos3" })
      .jpeg({ quality: 75, progressive: true, optimiseCoding: true })
      .toBuffer();
  }
}
