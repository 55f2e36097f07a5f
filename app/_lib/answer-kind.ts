import { benchmarks, isBenchmark } from "@/lib/benchmarks";

/**
 * Whether a stored benchmark's answers are pages (so its tasks have a target page, rendered for
 * the simulator and the score). Routes ask this of the module, never the benchmark's name; an
 * unknown name has no pages.
 */
export function answersArePages(benchmark: string): boolean {
  return isBenchmark(benchmark) && benchmarks[benchmark].answer.kind === "page";
}
