import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gpu } from "../gpu";
import { openNodeGpu } from "../node/open";
import { maxError } from "../testing/random";
import { KERNEL_CASES } from "./cases";

// Each WGSL kernel against its CPU reference on Dawn (a GPU where there is one, else Mesa's
// software OpenGL ES, which is what CI has).

let gpu: Gpu;
beforeAll(async () => {
  gpu = await openNodeGpu();
  console.log(`adapter: ${gpu.info.graphicsApi} ${gpu.info.description}${gpu.info.software ? " (software)" : ""}`);
});
afterAll(() => gpu?.destroy());

describe("WGSL kernels against their CPU references", () => {
  it.each(KERNEL_CASES.map((c) => [`${c.kernel} ${c.shape}`, c] as const))("%s", async (_, c) => {
    const { got, want } = await c.run(gpu);
    expect(got.length).toBe(want.length);
    expect(maxError(got, want)).toBeLessThanOrEqual(c.tolerance);
  });

  it("a broken input is caught by the comparison (the check can fail)", async () => {
    const c = KERNEL_CASES.find((k) => k.kernel === "attention" && k.shape.startsWith("prefix 513"))!;
    const { got, want } = await c.run(gpu);
    got[got.length - 1] = got[got.length - 1]! + 0.01;
    expect(maxError(got, want)).toBeGreaterThan(c.tolerance);
  });
});
