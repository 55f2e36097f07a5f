import type { BoxedCheck } from "@/lib/benchmarks/math-hard/boxed";

/** What the math-hard scorer records (lib/benchmarks/math-hard/runtime.ts), read defensively: old or failed rows may lack any of it. */
export interface MathHardDetails {
  accuracy?: number;
  thought?: string;
  judge?: string;
  judgeRaw?: string;
  boxed?: BoxedCheck & { check?: string };
  error?: string;
}

export function mathHardDetails(details: unknown): MathHardDetails {
  return details && typeof details === "object" ? details : {};
}
