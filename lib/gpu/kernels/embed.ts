import { spread, type Batch, type Gpu } from "../gpu";
import { withWeights, type GpuWeights } from "../weights";
import source from "./embed.wgsl";

/** A part of the vocabulary's [tokens, d] table in one buffer: ids [begin, end). */
export interface VocabPart {
  weights: GpuWeights;
  begin: number;
  end: number;
}

/** out[r, :] = the embedding of ids[r] (u32), over every part of the table. */
export function embed(
  gpu: Gpu,
  batch: Batch,
  args: { ids: GPUBuffer; out: GPUBuffer; rows: number; d: number; parts: VocabPart[] },
): void {
  if (args.rows === 0) return;
  for (const part of args.parts) {
    const kernel = withWeights(gpu, "embed", source, part.weights.format);
    batch.dispatch(
      gpu.kernel(kernel.name, kernel.source, kernel.constants),
      [args.rows, args.d, part.begin, part.end],
      [part.weights.buffer, args.ids, args.out],
      spread(Math.ceil((args.rows * args.d) / 256)),
    );
  }
}
