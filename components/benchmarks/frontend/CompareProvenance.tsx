import { profileLabel } from "@/lib/colbench/render-profile";
import type { RunSummary } from "@/lib/store/runs";

/** A similarity means nothing without the embedder and render profile that made it: each compared run's. */
export function FrontendCompareProvenance({ runs }: { runs: RunSummary[] }) {
  return (
    <p className="mb-2 text-sm text-stone-600" data-testid="compare-provenance">
      {runs.map((run, i) => (
        <span key={run.id} className="mr-4 inline-block">
          {i ? "B" : "A"}: {run.name} — similarity by{" "}
          <span className="font-mono">{run.embedder?.label ?? "an unknown embedder (imported rewards)"}</span>
          {run.render ? <>, rendered {profileLabel(run.render)}</> : null}
        </span>
      ))}
    </p>
  );
}
