import { spread, type Batch, type Gpu } from "../gpu";
import source from "./patches.wgsl";

/** Patch rows [images · tokens, 3 · patch²] of pixels [images, 3, size, size], a zero row first per image. */
export function patches(
  gpu: Gpu,
  batch: Batch,
  args: { pixels: GPUBuffer; out: GPUBuffer; images: number; size: number; patch: number },
): void {
  if (args.images === 0) return;
  if (args.size % args.patch !== 0)
    throw new Error(`patches: image size ${args.size} is not a multiple of patch ${args.patch}`);
  const tokens = 1 + (args.size / args.patch) ** 2;
  const count = args.images * tokens * 3 * args.patch ** 2;
  batch.dispatch(
    gpu.kernel("patches", source),
    [args.images, args.size, args.patch, tokens],
    [args.pixels, args.out],
    spread(Math.ceil(count / 256)),
  );
}
