import type { RankedCandidate } from "@/lib/store/sweet";

const score = (value: number | null) => (value === null ? "–" : value.toFixed(3));

/** A turn's SWEET-RL candidates, best advantage first; candidate 0 is what the agent actually said. */
export function Candidates({ candidates }: { candidates: RankedCandidate[] }) {
  return (
    <details className="mt-2 text-sm" data-testid="candidates">
      <summary className="cursor-pointer text-stone-500">
        Candidates ({candidates.length}), best advantage first
      </summary>
      <ol className="mt-2 space-y-2">
        {candidates.map((c, rank) => (
          <li
            key={c.id}
            data-testid="candidate"
            data-advantage={c.advantage ?? ""}
            className="rounded border border-stone-200 bg-white p-2"
          >
            <div className="mb-1 flex flex-wrap gap-3 font-mono text-xs text-stone-500">
              <span>#{rank + 1}</span>
              <span className={c.advantage === null ? "" : c.advantage >= 0 ? "text-emerald-700" : "text-rose-700"}>
                advantage {score(c.advantage)}
              </span>
              <span>critic {score(c.criticScore)}</span>
              <span>policy {score(c.policyMean)}</span>
              {c.index === 0 ? (
                <span className="rounded bg-sky-100 px-1 text-sky-800">the turn&apos;s own output</span>
              ) : null}
            </div>
            <div className="max-h-40 overflow-auto whitespace-pre-wrap break-words font-mono text-xs text-stone-800">
              {c.text}
            </div>
          </li>
        ))}
      </ol>
    </details>
  );
}
