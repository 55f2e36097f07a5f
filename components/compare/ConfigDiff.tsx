import type { ConfigDiffRow } from "@/lib/runs/config-diff";

const cell = "px-3 py-1.5 align-top break-words";

function Rows({ rows }: { rows: ConfigDiffRow[] }) {
  return (
    <>
      {rows.map((r) => (
        <tr
          key={r.key}
          data-testid="config-diff-row"
          data-key={r.key}
          data-differs={r.differs ? "yes" : "no"}
          className={r.differs ? "bg-amber-50" : ""}
        >
          <th scope="row" className={`${cell} text-left font-normal text-stone-600`}>
            {r.differs ? (
              <span className="mr-1 font-semibold text-amber-700" aria-label="differs">
                ≠
              </span>
            ) : null}
            {r.label}
          </th>
          <td className={`${cell} font-mono text-xs ${r.differs ? "text-stone-900" : "text-stone-600"}`}>{r.a}</td>
          <td className={`${cell} font-mono text-xs ${r.differs ? "text-stone-900" : "text-stone-600"}`}>
            {r.b}
            {r.note ? <span className="block font-sans text-amber-800">{r.note}</span> : null}
          </td>
        </tr>
      ))}
    </>
  );
}

function Head({ aName, bName }: { aName: string; bName: string }) {
  return (
    <thead className="bg-stone-50 text-left text-xs text-stone-500">
      <tr>
        <th scope="col" className={`${cell} w-1/4`}>
          Setting
        </th>
        <th scope="col" className={cell}>
          A: {aName}
        </th>
        <th scope="col" className={cell}>
          B: {bName}
        </th>
      </tr>
    </thead>
  );
}

/**
 * The two runs' settings, what differed first and marked; what was held fixed behind a toggle, so a
 * difference in the rewards below can be read against the settings that made it.
 */
export function ConfigDiff({ rows, aName, bName }: { rows: ConfigDiffRow[]; aName: string; bName: string }) {
  const differ = rows.filter((r) => r.differs);
  const same = rows.filter((r) => !r.differs);
  const table = "w-full table-fixed text-sm";
  return (
    <section
      className="mb-6 rounded-lg border border-stone-200 bg-white p-4"
      aria-labelledby="config-diff-title"
      data-testid="config-diff"
    >
      <h2 id="config-diff-title" className="mb-1 font-medium text-stone-800">
        What differed
      </h2>
      <p className="mb-3 text-sm text-stone-700" data-testid="config-diff-summary">
        {differ.length
          ? `${differ.length} setting${differ.length === 1 ? "" : "s"} differ${differ.length === 1 ? "s" : ""}: ${differ.map((r) => r.label).join(", ")}.`
          : "The two runs were made with the same settings."}
      </p>
      <div className="overflow-x-auto">
        {differ.length ? (
          <table className={table} data-testid="config-diff-differ">
            <Head aName={aName} bName={bName} />
            <tbody className="divide-y divide-stone-100">
              <Rows rows={differ} />
            </tbody>
          </table>
        ) : null}
        {same.length ? (
          <details className="mt-2" data-testid="config-diff-same">
            <summary className="cursor-pointer text-sm text-stone-500">
              {same.length} setting{same.length === 1 ? "" : "s"} the same in both
            </summary>
            <table className={`${table} mt-2`}>
              <Head aName={aName} bName={bName} />
              <tbody className="divide-y divide-stone-100">
                <Rows rows={same} />
              </tbody>
            </table>
          </details>
        ) : null}
      </div>
    </section>
  );
}
