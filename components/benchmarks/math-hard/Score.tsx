import type { ScoreProps } from "../views";
import { mathHardDetails } from "./details";

/** The final answer, the judge's verdict and thought, and MATH's boxed-answer check beside them. */
export function MathHardScore({ answer, details }: ScoreProps) {
  const d = mathHardDetails(details);
  return (
    <>
      <pre className="whitespace-pre-wrap break-words rounded-lg bg-stone-50 p-4 text-sm text-stone-900 ring-1 ring-stone-200">
        {answer ?? "(no answer)"}
      </pre>
      {d.accuracy !== undefined ? (
        <div className="mt-3 rounded-lg border border-stone-200 bg-white p-3 text-sm" data-testid="judge-verdict">
          <p className={`font-medium ${d.accuracy >= 1 ? "text-green-700" : "text-red-700"}`}>
            {d.accuracy >= 1 ? "Judged correct" : "Judged wrong"}
            {d.judge ? <span className="ml-2 font-normal text-stone-500">by {d.judge}</span> : null}
          </p>
          {d.thought ? <p className="mt-1 whitespace-pre-wrap text-stone-700">{d.thought}</p> : null}
        </div>
      ) : null}
      {d.boxed ? (
        <p className="mt-2 text-xs text-stone-600" data-testid="boxed-check">
          {d.boxed.check ?? "MATH is_equiv (hendrycks)"}: answer <code>{d.boxed.answer ?? "(no \\boxed{})"}</code>,
          reference <code>{d.boxed.reference ?? "(none)"}</code>, {d.boxed.equivalent ? "equivalent" : "not equivalent"}
        </p>
      ) : null}
    </>
  );
}
