import { z } from "zod";
import { runConfigBaseSchema, type RunConfigBase } from "../colbench/run-config";
import { BENCHMARKS, benchmarks, type Benchmark, type BenchmarkModules } from "./index";

// A run's stored config: the common fields (lib/colbench/run-config.ts), the benchmark's name, and
// that benchmark's own run options, one variant per registered benchmark. Light, like the modules:
// listing runs parses configs without loading a scorer.

/** A shape's parsed object; a benchmark without options adds nothing (zod would say Record<string, never>). */
type OptionsOf<S extends z.ZodRawShape> = keyof S extends never ? unknown : z.output<z.ZodObject<S>>;

/** One benchmark's run config. */
export type RunConfigOf<B extends Benchmark> = RunConfigBase & { benchmark: B } & OptionsOf<
    BenchmarkModules[B]["runOptions"]
  >;

/** Everything needed to reproduce or resume a run; stored as the Run's config. Narrow it on `benchmark`. */
export type RunConfig = { [B in Benchmark]: RunConfigOf<B> }[Benchmark];

// The name first, as stored configs always had it.
const variants = BENCHMARKS.map((name) =>
  z.object({ benchmark: z.literal(name), ...runConfigBaseSchema.shape, ...benchmarks[name].runOptions }),
);

/**
 * Parses a stored config by its benchmark. Fields of another benchmark's options are dropped, so
 * backend runs stored when every config carried the frontend's `embedder` and `render` still parse.
 */
export const runConfigSchema = z.discriminatedUnion(
  "benchmark",
  variants as [(typeof variants)[number], ...(typeof variants)[number][]],
) as unknown as z.ZodType<RunConfig, unknown>;
