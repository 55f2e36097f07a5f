import type { ScoreProps } from "../views";

/** The final function and each hidden test's result. */
export function BackendScore({ answer, details }: ScoreProps) {
  return (
    <>
      <pre className="whitespace-pre-wrap break-words rounded-lg bg-stone-900 p-4 font-mono text-sm text-stone-100">
        {answer ?? "(no answer)"}
      </pre>
      {details.tests?.length ? (
        <table
          className="mt-3 w-full overflow-hidden rounded-lg border border-stone-200 bg-white text-sm"
          data-testid="test-results"
        >
          <tbody className="divide-y divide-stone-100">
            {details.tests.map((t) => (
              <tr key={t.name}>
                <td className={`w-16 px-3 py-1.5 font-medium ${t.passed ? "text-green-700" : "text-red-700"}`}>
                  {t.passed ? "pass" : "fail"}
                </td>
                <td className="px-3 py-1.5 font-mono text-xs">{t.expression}</td>
                <td className="px-3 py-1.5 text-xs text-stone-600">
                  {t.reason}
                  {!t.passed && t.expected !== undefined
                    ? ` (expected ${t.expected}, got ${t.actual ?? "nothing"})`
                    : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {details.output ? (
        // A failing test's reason names only the exception's class; what the answer printed is often the rest of the story.
        <details className="mt-3 text-sm" open={details.tests?.some((t) => !t.passed)} data-testid="answer-output">
          <summary className="cursor-pointer text-stone-600">What the answer printed while its tests ran</summary>
          <pre className="mt-1 max-h-80 overflow-auto whitespace-pre-wrap break-words rounded bg-stone-100 p-2 font-mono text-xs text-stone-800">
            {details.output}
          </pre>
        </details>
      ) : null}
    </>
  );
}
