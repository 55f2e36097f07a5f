import type { HumanRating } from "@/lib/label/leaderboard";

/** Runs rated by people's labels on pairs that compare them (Bradley-Terry, Elo scale, bootstrap 95% intervals). */
export function HumanPreference({ ratings }: { ratings: HumanRating[] }) {
  if (!ratings.length) return null;
  return (
    <section className="mb-8" aria-labelledby="human-preference">
      <h2 id="human-preference" className="mb-1 text-lg font-semibold text-stone-900">
        Human preference
      </h2>
      <p className="mb-2 text-sm text-stone-600">
        From labels on pairs that put two runs side by side (Annotate): a Bradley-Terry rating per run on the Elo scale,
        with a 95% bootstrap interval; tie and both bad count half a win each.
      </p>
      <table
        className="w-full overflow-hidden rounded-lg border border-stone-200 bg-white text-sm"
        data-testid="leaderboard-human"
      >
        <thead className="bg-stone-100 text-left text-xs uppercase tracking-wide text-stone-500">
          <tr>
            <th className="px-3 py-2">Run</th>
            <th className="px-3 py-2 text-right">Rating (95% CI)</th>
            <th className="px-3 py-2 text-right">Labels</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {ratings.map((r) => (
            <tr key={r.runId}>
              <td className="px-3 py-2">
                <a href={`/runs/${r.runId}`} className="font-medium text-teal-800 hover:underline">
                  {r.run}
                </a>
              </td>
              <td className="px-3 py-2 text-right tabular-nums">
                {r.rating.toFixed(0)} [{r.low?.toFixed(0) ?? "–"}, {r.high?.toFixed(0) ?? "–"}]
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{r.votes}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
