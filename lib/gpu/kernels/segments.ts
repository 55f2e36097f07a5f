import { spread, type Batch, type Gpu } from "../gpu";
import source from "./segments.wgsl";

/** (sum, mean) of values[start, end) per segment (`ranges`: u32 pairs) into `totals` (f32 pairs); an empty segment gets (0, 0). */
export function segmentTotals(
  gpu: Gpu,
  batch: Batch,
  args: { values: GPUBuffer; ranges: GPUBuffer; totals: GPUBuffer; count: number },
): void {
  if (args.count === 0) return;
  batch.dispatch(
    gpu.kernel("segments", source),
    [args.count],
    [args.values, args.ranges, args.totals],
    spread(args.count),
  );
}
