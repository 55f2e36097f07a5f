import Link from "next/link";
import type { FailureGroup } from "@/lib/colbench/failure";

// A run's failures grouped by reason (lib/store/run-failures.ts): how many episodes failed for each,
// with a few of them to open. Rendered by the server with the page; nothing when none failed.

export function RunFailures({ failed, groups }: { failed: number; groups: FailureGroup[] }) {
  if (failed === 0) return null;
  const grouped = groups.reduce((n, g) => n + g.count, 0);
  return (
    <section
      className="mb-6 rounded-lg border border-stone-200 bg-white p-4"
      aria-labelledby="run-failures-title"
      data-testid="run-failures"
    >
      <h2 id="run-failures-title" className="mb-3 text-sm font-semibold text-stone-700">
        Failures by reason
      </h2>
      <ul className="space-y-2 text-sm">
        {groups.map((group) => (
          <li key={group.reason} className="flex gap-3" data-testid="failure-group">
            <span
              className="w-12 shrink-0 text-right font-semibold tabular-nums text-red-800"
              data-testid="failure-count"
            >
              {group.count}
            </span>
            <span className="min-w-0">
              <span className="break-words text-stone-800" data-testid="failure-reason">
                {group.reason}
              </span>
              <span className="ml-2 text-xs text-stone-500">
                e.g.{" "}
                {group.examples.map((id, i) => (
                  <span key={id}>
                    {i > 0 ? ", " : ""}
                    <Link href={`/episodes/${id}`} className="font-mono text-teal-800 hover:underline">
                      #{id}
                    </Link>
                  </span>
                ))}
              </span>
            </span>
          </li>
        ))}
      </ul>
      {grouped < failed ? (
        <p className="mt-2 text-xs text-stone-500">
          Grouped the first {grouped} of {failed} failed episodes.
        </p>
      ) : null}
    </section>
  );
}
