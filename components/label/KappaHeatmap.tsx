// The agreement page's pairwise Cohen's kappa as one square of cells: every person's name on both
// axes, each cell coloured by the two people's kappa and marked when they share few pairs, and each
// row's mean kappa at its end. It replaces a list that grew with the square of the people.
import { FEW_SHARED, kappaMatrix, type PersonKappa } from "@/lib/label/pairwise";
import type { AgreementReport } from "@/lib/label/report";

const fixed = (x: number | null) => (x === null ? "–" : x.toFixed(2));

/** Teal for agreement beyond chance, rose for less than chance, paler toward 0. */
function shade(kappa: number | null): { background: string; color: string } {
  if (kappa === null) return { background: "#f5f5f4", color: "#78716c" };
  const strength = Math.min(1, Math.abs(kappa));
  const hue = kappa >= 0 ? 174 : 350;
  const light = 97 - strength * 55;
  return { background: `hsl(${hue} 65% ${light}%)`, color: light < 60 ? "#ffffff" : "#1c1917" };
}

const CELL = "h-8 w-10 min-w-10 border border-white text-center text-xs tabular-nums";

export function KappaHeatmap({ report }: { report: AgreementReport }) {
  const names = report.annotators.map((a) => a.name);
  const matrix = kappaMatrix(report.cohen);
  const means = new Map<string, PersonKappa>(report.meanKappa.map((m) => [m.name, m]));
  if (!report.cohen.length)
    return (
      <p className="text-sm text-stone-500" data-testid="kappa-heatmap">
        No two people have labelled the same pair yet.
      </p>
    );
  return (
    <figure className="rounded-lg border border-stone-200 bg-white p-4">
      <figcaption className="mb-2 text-sm text-stone-600">
        Each cell: the two people&apos;s Cohen&apos;s kappa over the pairs both labelled (hover for how many).{" "}
        <span className="text-amber-800">
          <b>!</b> fewer than {FEW_SHARED} shared pairs: that kappa can swing widely.
        </span>{" "}
        The last column is each person&apos;s mean kappa over the people they share pairs with, and how many.
      </figcaption>
      <div className="overflow-x-auto">
        <table className="border-collapse" data-testid="kappa-heatmap">
          <thead>
            <tr>
              <th />
              {names.map((name) => (
                <th key={name} scope="col" className="px-0.5 pb-1 align-bottom text-xs font-normal text-stone-600">
                  <span className="inline-block max-h-40 truncate [writing-mode:vertical-rl] rotate-180">{name}</span>
                </th>
              ))}
              <th scope="col" className="whitespace-nowrap px-2 pb-1 align-bottom text-xs font-medium text-stone-700">
                mean κ (with)
              </th>
            </tr>
          </thead>
          <tbody>
            {names.map((row) => {
              const mean = means.get(row);
              return (
                <tr key={row} data-testid="heatmap-row">
                  <th scope="row" className="max-w-40 truncate pr-2 text-right text-xs font-normal text-stone-700">
                    {row}
                  </th>
                  {names.map((col) => {
                    if (row === col)
                      return <td key={col} className={`${CELL} bg-stone-200`} aria-label="the same person" />;
                    const cell = matrix.get(row)?.get(col);
                    if (!cell)
                      return (
                        <td
                          key={col}
                          className={`${CELL} bg-stone-50 text-stone-300`}
                          title={`${row} · ${col}: no shared pair`}
                        >
                          ·
                        </td>
                      );
                    return (
                      <td
                        key={col}
                        className={`${CELL} relative`}
                        style={shade(cell.kappa)}
                        data-testid="heatmap-cell"
                        data-few={cell.few ? "true" : undefined}
                        title={`${row} · ${col}: κ ${cell.kappa === null ? "undefined (every shared label in one category)" : cell.kappa.toFixed(3)}, agree ${cell.observed === null ? "–" : `${Math.round(cell.observed * 100)}%`} over ${cell.shared} shared ${cell.shared === 1 ? "pair" : "pairs"}${cell.few ? ` (fewer than ${FEW_SHARED}: unsure)` : ""}`}
                      >
                        {fixed(cell.kappa)}
                        {cell.few ? (
                          <b className="absolute right-0.5 top-0 text-[10px] leading-none text-amber-700">!</b>
                        ) : null}
                      </td>
                    );
                  })}
                  <td className="whitespace-nowrap px-2 text-xs tabular-nums text-stone-800" data-testid="mean-kappa">
                    {mean ? <MeanKappa mean={mean} /> : "–"}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/**
 * A person's mean kappa and over how many people, on one line; "!" when some of those kappas are
 * over few shared pairs (how many is in its title, with any undefined kappas left out of the mean).
 */
export function MeanKappa({ mean }: { mean: PersonKappa }) {
  const title = [
    `mean of ${mean.partners} pairwise ${mean.partners === 1 ? "kappa" : "kappas"}`,
    mean.few ? `${mean.few} of them over fewer than ${FEW_SHARED} shared pairs` : "",
    mean.undefinedWith ? `${mean.undefinedWith} more undefined (left out)` : "",
  ]
    .filter(Boolean)
    .join("; ");
  return (
    <span className="whitespace-nowrap" title={title}>
      <b>{fixed(mean.mean)}</b> ({mean.partners})
      {mean.few ? (
        <b className="ml-0.5 text-amber-700" aria-label={`${mean.few} over few shared pairs`}>
          !
        </b>
      ) : null}
    </span>
  );
}
