// One side of a trajectory pair, answer first: its final answer (the page's render where the
// benchmark's answers are pages, else the text with where it parts from the other side
// highlighted), then its tests when the queue shows scores, then the dialogue, folded.
import type { ViewSide, ViewTest } from "@/lib/label/views";
import { Transcript } from "@/components/Transcript";
import { Differing } from "./Differing";

const NAMES = { agent: "agent", simulator: "human" };

function Tests({ tests }: { tests: ViewTest[] }) {
  const passed = tests.filter((t) => t.passed).length;
  return (
    <table className="mt-2 w-full rounded border border-stone-200 bg-white text-xs" data-testid="test-results">
      <caption className="px-2 py-1 text-left text-stone-500">
        Tests: {passed} of {tests.length} passed
      </caption>
      <tbody className="divide-y divide-stone-100">
        {tests.map((t) => (
          <tr key={t.name}>
            <td className={`w-12 px-2 py-1 font-medium ${t.passed ? "text-green-700" : "text-red-700"}`}>
              {t.passed ? "pass" : "fail"}
            </td>
            <td className="px-2 py-1 font-mono">{t.expression ?? t.name}</td>
            <td className="px-2 py-1 text-stone-600">
              {t.reason ?? ""}
              {!t.passed && t.expected !== undefined ? ` (expected ${t.expected}, got ${t.actual ?? "nothing"})` : ""}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Render({ id, label }: { id: string | null; label: string }) {
  if (!id || !/^[0-9a-f]{64}$/.test(id))
    return <p className="p-4 text-center text-sm text-stone-500">No render of this page</p>;
  return (
    // A render the studio serves by digest, already sized; Next's image optimiser would only copy it.
    // eslint-disable-next-line @next/next/no-img-element
    <img
      src={`/api/renders/${id}`}
      alt={`${label}: the final page`}
      className="max-h-[42vh] w-full object-contain object-top"
    />
  );
}

export function SideColumn({
  side,
  label,
  span,
  taskOpens,
  testId,
}: {
  side: ViewSide;
  label: string;
  span: { prefix: number; suffix: number };
  /** Turn 0 is the task, shown once above the pair: left out of the dialogue. */
  taskOpens: boolean;
  testId: string;
}) {
  // Blank lines before the answer (after the agent's marker) would push its first line down.
  const blank = /^(?:[ \t\r]*\n)*/.exec(side.answer ?? "")![0].length;
  const answer = (side.answer ?? "").slice(blank);
  const prefix = Math.max(0, span.prefix - blank);
  const turns = taskOpens ? side.turns.filter((t) => t.index !== 0) : side.turns;
  const code = (
    <Differing
      text={answer || "(no answer)"}
      prefix={prefix}
      suffix={Math.min(span.suffix, answer.length - prefix)}
      testId={`${testId}-code`}
      className="max-h-[42vh] overflow-auto"
    />
  );
  return (
    <section
      className="min-w-0 rounded-lg border border-stone-200 bg-stone-50 p-2"
      data-testid={testId}
      aria-label={label}
    >
      <h2 className="mb-1 text-base font-semibold text-stone-900">
        {label} <span className="text-xs font-normal text-stone-500">final answer</span>
      </h2>
      <div data-testid={`answer-${label.toLowerCase()}`}>
        {side.render !== undefined ? (
          <>
            <Render id={side.render} label={label} />
            <details className="mt-1 text-sm">
              <summary className="cursor-pointer text-stone-600">
                Its code (where it differs from the other side, highlighted)
              </summary>
              {code}
            </details>
          </>
        ) : (
          code
        )}
      </div>
      {side.failed ? <p className="mt-2 rounded bg-red-50 p-2 text-sm text-red-800">{side.failed}</p> : null}
      {side.tests?.length ? <Tests tests={side.tests} /> : null}
      <details className="mt-2 text-sm" data-testid={`${testId}-dialogue`}>
        <summary className="cursor-pointer text-stone-600">The dialogue ({turns.length} turns)</summary>
        <div className="mt-2">
          <Transcript turns={turns} names={NAMES} taskOpens={false} />
        </div>
      </details>
    </section>
  );
}
