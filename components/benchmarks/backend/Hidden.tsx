import type { RevealedHidden } from "../views";

/** The reference solution and the hidden tests a task's answers are scored by. */
export function BackendHidden({ hidden }: { taskId: number; hidden: RevealedHidden }) {
  return (
    <div className="mt-3 space-y-4" data-testid="hidden-information">
      <div>
        <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">Reference solution</h3>
        <pre className="overflow-x-auto rounded-lg bg-stone-900 p-4 font-mono text-sm leading-relaxed text-stone-100">
          {hidden.groundTruth}
        </pre>
      </div>
      <div>
        <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">
          Hidden tests ({hidden.testCases?.length ?? 0})
        </h3>
        <table className="w-full overflow-hidden rounded-lg border border-stone-200 bg-white text-sm">
          <tbody className="divide-y divide-stone-100">
            {(hidden.testCases ?? []).map((test) => (
              <tr key={test.name}>
                <td className="w-24 px-3 py-1.5 font-mono text-xs text-stone-500">{test.name}</td>
                <td className="px-3 py-1.5 font-mono text-xs text-stone-800">{test.expression}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
