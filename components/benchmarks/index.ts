import type { Benchmark } from "@/lib/benchmarks";
import type { BenchmarkViews } from "./views";
import { backendViews } from "./backend";
import { frontendViews } from "./frontend";
import { mathHardViews } from "./math-hard";

// The views of every registered benchmark (lib/benchmarks' registry): a benchmark registered there
// without its views here does not compile. Shared components ask this instead of comparing names.

export const benchmarkViews = {
  backend: backendViews,
  frontend: frontendViews,
  "math-hard": mathHardViews,
} satisfies Record<Benchmark, BenchmarkViews>;

export type { BenchmarkViews } from "./views";
