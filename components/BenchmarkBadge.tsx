import type { Benchmark } from "@/lib/benchmarks";
import { benchmarkViews } from "@/components/benchmarks";

export function BenchmarkBadge({ benchmark }: { benchmark: Benchmark }) {
  return (
    <span
      className={`rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${benchmarkViews[benchmark].badgeTone}`}
    >
      {benchmark}
    </span>
  );
}
