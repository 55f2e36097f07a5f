/**
 * The port a spec's studio (or other listener) takes: the spec's own offset from COLBENCH_E2E_PORT (3210),
 * in the block of the Playwright worker running it, so specs running at once in two workers never meet on
 * a port. Offsets stay under 100; offset 0 is the worker's copy of the shared studio (e2e/test.ts).
 */
export function e2ePort(offset: number): number {
  if (!Number.isInteger(offset) || offset < 0 || offset >= 100)
    throw new Error(`e2e port offset ${offset} is not in 0-99`);
  const base = Number(process.env.COLBENCH_E2E_PORT ?? 3210);
  return base + 100 * Number(process.env.TEST_PARALLEL_INDEX ?? 0) + offset;
}
