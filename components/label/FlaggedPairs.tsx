// What a queue's lead reads of the pairs people passed on: flagged as broken, or skipped with a reason.
export function FlaggedPairs({
  flags,
}: {
  flags: Array<{ itemId: number; user: string; broken: boolean; reason: string | null }>;
}) {
  return (
    <section className="mt-6" data-testid="flags">
      <h2 className="mb-2 text-lg font-semibold">Skipped with a reason, or flagged as broken ({flags.length})</h2>
      {flags.length ? (
        <table className="w-full rounded-lg border border-stone-200 bg-white text-sm">
          <tbody className="divide-y divide-stone-100">
            {flags.map((f) => (
              <tr key={`${f.itemId}-${f.user}`}>
                <td className="w-24 px-3 py-1.5 font-mono text-xs">pair {f.itemId}</td>
                <td className="w-32 px-3 py-1.5">{f.user}</td>
                <td className="w-20 px-3 py-1.5">
                  {f.broken ? <span className="font-medium text-red-700">broken</span> : "skipped"}
                </td>
                <td className="px-3 py-1.5 text-stone-700">{f.reason ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="text-sm text-stone-500">None.</p>
      )}
    </section>
  );
}
