import type { ScoreProps } from "../views";

/** The final function and each hidden test's result. */
export function BackendScore({ answer, details }: ScoreProps) {
  return (
    <>
      <pre className="overflow-x-auto whitespace-pre-wrap rounded-lg bg-stone-900 p-4 font-mono text-sm text-stone-100">
        {answer ?? "(no answer)"}
      </pre>
      {details.tests?.length ? (
        // The table scrolls inside its own box on a narrow screen; long expressions and reprs wrap.
        <div className="mt-3 overflow-x-auto rounded-lg border border-stone-200 bg-white">
          <table className="w-full text-sm" data-testid="test-results">
            <tbody className="divide-y divide-stone-100">
              {details.tests.map((t) => (
                <tr key={t.name} className="align-top">
                  <td className={`w-12 px-3 py-1.5 font-medium ${t.passed ? "text-green-700" : "text-red-700"}`}>
                    {t.passed ? "pass" : "fail"}
                  </td>
                  <td className="min-w-32 px-3 py-1.5 font-mono text-xs [overflow-wrap:anywhere]">{t.expression}</td>
                  <td className="min-w-40 px-3 py-1.5 text-xs text-stone-600 [overflow-wrap:anywhere]">
                    {t.reason}
                    {t.message ? (
                      <span className="font-mono text-red-800" data-testid="test-message">
                        : {t.message}
                      </span>
                    ) : null}
                    {!t.passed && t.expected !== undefined
                      ? ` (expected ${t.expected}, got ${t.actual ?? "nothing"})`
                      : ""}
                    {t.output ? (
                      <details className="mt-1" data-testid="test-output">
                        <summary className="cursor-pointer text-stone-500">printed during this test</summary>
                        <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap rounded bg-stone-100 p-2 font-mono text-xs text-stone-800">
                          {t.output}
                        </pre>
                      </details>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {details.output ? (
        // Everything the answer printed, all tests together (each failed test also keeps its own part above).
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
