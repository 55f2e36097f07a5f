import { spread, type Batch, type Gpu } from "../gpu";
import { matmul, type Linear } from "./matmul";
import source from "./silu-mul.wgsl";

/** h[rows, inner] = silu(gate) · up, from the fused gate|up projection's output. */
export function siluMul(
  gpu: Gpu,
  batch: Batch,
  args: { gateUp: GPUBuffer; h: GPUBuffer; rows: number; inner: number },
): void {
  if (args.rows === 0) return;
  batch.dispatch(
    gpu.kernel("silu-mul", source),
    [args.rows, args.inner],
    [args.gateUp, args.h],
    spread(Math.ceil((args.rows * args.inner) / 256)),
  );
}

/**
 * The SiLU-gated MLP with its residual: y = down(silu(gate(x)) · up(x)) + residual. `gateUp` holds
 * the gate and up matrices one after the other (2 · inner rows); `scratch` buffers hold
 * [rows, 2 · inner] and [rows, inner] floats.
 */
export function mlp(
  gpu: Gpu,
  batch: Batch,
  args: {
    x: GPUBuffer;
    y: GPUBuffer;
    residual: GPUBuffer;
    rows: number;
    gateUp: Linear;
    down: Linear;
    gateUpOut: GPUBuffer;
    hidden: GPUBuffer;
  },
): void {
  const inner = args.down.k;
  matmul(gpu, batch, { x: args.x, y: args.gateUpOut, m: args.rows, linear: args.gateUp });
  siluMul(gpu, batch, { gateUp: args.gateUpOut, h: args.hidden, rows: args.rows, inner });
  matmul(gpu, batch, { x: args.hidden, y: args.y, m: args.rows, linear: args.down, residual: args.residual });
}
