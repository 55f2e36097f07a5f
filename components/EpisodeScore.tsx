import type { Benchmark } from "@/lib/benchmarks";
import { benchmarkViews } from "@/components/benchmarks";
import type { ScoreDetails } from "@/components/benchmarks/views";

/** The final answer and how it scored, as the benchmark shows it (per-test results, both renders). */
export function EpisodeScore({
  benchmark,
  answer,
  details,
  headingId = "score-heading",
  targetWithheld = false,
}: {
  benchmark: Benchmark;
  answer: string | null;
  details: unknown;
  /** Several on one page (a labelling pair) need their own heading ids. */
  headingId?: string;
  /** The target page is hidden information: say so instead of showing it. */
  targetWithheld?: boolean;
}) {
  const d = (details ?? {}) as ScoreDetails;
  const { Score } = benchmarkViews[benchmark];
  return (
    <section className="mt-8" aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-2 text-lg font-semibold text-stone-900">
        Final answer and score
      </h2>
      {d.error ? (
        <p className="mb-3 rounded bg-red-50 p-3 text-sm text-red-800">This episode failed: {d.error}</p>
      ) : null}
      <Score answer={answer} details={d} targetWithheld={targetWithheld} />
    </section>
  );
}
