import { profileLabel } from "@/lib/colbench/render-profile";
import type { LeaderboardRow } from "@/lib/store/leaderboard";
import { percent } from "@/components/format";
import { FilterPills } from "@/components/FilterPills";
import { withQuery } from "@/components/IncludeSwitch";
import type { LeaderboardColumn, LeaderboardHeaderProps, LeaderboardViews } from "../views";

// Similarities are comparable only within one render profile and one embedder: the frontend table
// names both per run, shows one embedder's runs at a time when asked, and ranks against a baseline.

const embedderOf = (r: LeaderboardRow) => r.run.embedder?.id ?? "unknown";

const before: LeaderboardColumn[] = [
  {
    header: "Render profile",
    className: () => "font-mono text-xs text-stone-600",
    testId: "render-profile",
    cell: (row) => (row.run.render ? profileLabel(row.run.render) : "unknown (imported)"),
  },
  {
    header: "Embedder",
    className: (row) =>
      `font-mono text-xs ${row.run.embedder?.paperMetric === false ? "text-amber-800" : "text-stone-600"}`,
    testId: "embedder",
    cell: (row) => row.run.embedder?.label ?? "unknown (imported)",
  },
];

const after: LeaderboardColumn[] = [
  {
    header: "Win rate vs baseline (95% CI)",
    numeric: true,
    cell: (row, { baseline }) =>
      row.run.id === baseline ? (
        "baseline"
      ) : row.versusBaseline ? (
        `${percent(row.versusBaseline.win_rate)} [${percent(row.versusBaseline.ci_low)}, ${percent(row.versusBaseline.ci_high)}] on ${row.versusBaseline.n}`
      ) : row.notComparable ? (
        <span title={row.notComparable} className="text-amber-800">
          not comparable: other {row.notComparableBy ?? "render profile"}
        </span>
      ) : (
        "–"
      ),
    text: (row, { baseline }) =>
      row.run.id === baseline
        ? "baseline"
        : row.versusBaseline
          ? `${percent(row.versusBaseline.win_rate)} [${percent(row.versusBaseline.ci_low)}, ${percent(row.versusBaseline.ci_high)}] on ${row.versusBaseline.n}`
          : row.notComparable
            ? `not comparable: other ${row.notComparableBy ?? "render profile"}`
            : "–",
    sort: (row) => row.versusBaseline?.win_rate ?? null,
  },
];

function embedders(rows: LeaderboardRow[]): string[] {
  return [...new Set(rows.map(embedderOf))].sort();
}

/** The embedder the query names, if any run has it. */
function chosenEmbedder(rows: LeaderboardRow[], query: Record<string, string | undefined>): string | undefined {
  return embedders(rows).find((e) => e === query.embedder);
}

function FrontendLeaderboardHeader({ heading, all, shown, query, baseline }: LeaderboardHeaderProps) {
  const includePlayed = query.played === "1";
  const known = embedders(all);
  const embedder = chosenEmbedder(all, query);
  return (
    <>
      <div className="mb-2 flex flex-wrap items-end justify-between gap-2">
        <h2 className="text-lg font-semibold text-stone-900">{heading}</h2>
        <form method="get" className="flex items-center gap-2 text-sm">
          {includePlayed ? <input type="hidden" name="played" value="1" /> : null}
          {embedder ? <input type="hidden" name="embedder" value={embedder} /> : null}
          <label htmlFor="baseline" className="text-stone-600">
            Baseline run
          </label>
          <select
            id="baseline"
            name="baseline"
            defaultValue={baseline ?? ""}
            className="rounded-md border border-stone-300 bg-white px-2 py-1"
          >
            <option value="">none</option>
            {shown.map((r) => (
              <option key={r.run.id} value={r.run.id}>
                {r.run.name}
              </option>
            ))}
          </select>
          <button type="submit" className="rounded-md bg-teal-700 px-3 py-1 text-white">
            Set baseline
          </button>
        </form>
      </div>
      {new Set(shown.map((r) => (r.run.render ? profileLabel(r.run.render) : "unknown"))).size > 1 ? (
        <p
          role="alert"
          data-testid="leaderboard-profiles"
          className="mb-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          These runs were scored under different render profiles (see the column): similarities are comparable only
          between runs of one profile. Rescore a run under another with{" "}
          <code className="font-mono">colbench rescore RUN --profile P --browser B</code>.
        </p>
      ) : null}
      {known.length > 0 ? (
        <>
          <div className="mb-2 text-sm">
            <FilterPills
              label="Filter by embedder"
              caption="embedder"
              pills={[undefined, ...known].map((e) => ({
                label: e ?? "all",
                href: withQuery("/leaderboard", query, { embedder: e }),
                current: e === embedder,
              }))}
            />
          </div>
          {!embedder && known.length > 1 ? (
            <p
              role="alert"
              data-testid="leaderboard-embedders"
              className="mb-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
            >
              These runs&apos; similarities come from different image embedders (see the column): only runs of one
              embedder are comparable, and only CLIP ViT-B/32&apos;s with the paper.
            </p>
          ) : null}
        </>
      ) : null}
    </>
  );
}

export const frontendLeaderboard: LeaderboardViews = {
  before,
  after,
  shown(rows, query) {
    const embedder = chosenEmbedder(rows, query);
    return embedder ? rows.filter((r) => embedderOf(r) === embedder) : rows;
  },
  Header: FrontendLeaderboardHeader,
};
