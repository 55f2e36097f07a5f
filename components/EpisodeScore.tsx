import type { BackendTestResult as TestResult } from "@/lib/scoring/backend/scorer";
import { profileLabel, type RenderProfile } from "@/lib/colbench/render-profile";

/** The final answer and how it scored: per-test results (backend) or both renders (frontend). */
export function EpisodeScore({
  benchmark,
  answer,
  details,
  headingId = "score-heading",
  targetWithheld = false,
}: {
  benchmark: "backend" | "frontend";
  answer: string | null;
  details: unknown;
  /** Several on one page (a labelling pair) need their own heading ids. */
  headingId?: string;
  /** The target page is hidden information: say so instead of showing it. */
  targetWithheld?: boolean;
}) {
  const d = (details ?? {}) as {
    tests?: TestResult[];
    error?: string;
    answerRender?: string;
    targetRender?: string;
    answerStatus?: string;
    targetStatus?: string;
    answerError?: string;
    targetError?: string;
    reward?: number;
    embedder?: string;
    profile?: RenderProfile;
  };
  return (
    <section className="mt-8" aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-2 text-lg font-semibold text-stone-900">
        Final answer and score
      </h2>
      {d.error ? <p className="mb-3 rounded bg-red-50 p-3 text-sm text-red-800">This episode failed: {d.error}</p> : null}
      {benchmark === "backend" ? (
        <>
          <pre className="whitespace-pre-wrap break-words rounded-lg bg-stone-900 p-4 font-mono text-sm text-stone-100">{answer ?? "(no answer)"}</pre>
          {d.tests?.length ? (
            <table className="mt-3 w-full overflow-hidden rounded-lg border border-stone-200 bg-white text-sm" data-testid="test-results">
              <tbody className="divide-y divide-stone-100">
                {d.tests.map((t) => (
                  <tr key={t.name}>
                    <td className={`w-16 px-3 py-1.5 font-medium ${t.passed ? "text-green-700" : "text-red-700"}`}>{t.passed ? "pass" : "fail"}</td>
                    <td className="px-3 py-1.5 font-mono text-xs">{t.expression}</td>
                    <td className="px-3 py-1.5 text-xs text-stone-600">
                      {t.reason}
                      {!t.passed && t.expected !== undefined ? ` (expected ${t.expected}, got ${t.actual ?? "nothing"})` : ""}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          {[
            ["Agent's final page", d.answerRender, d.answerStatus, d.answerError],
            ...(targetWithheld ? [] : [["Target page", d.targetRender, d.targetStatus, d.targetError]]),
          ].map(([label, id, status, trouble]) => (
            <figure key={label} className="rounded-lg border border-stone-200 bg-white p-2">
              <figcaption className="mb-1 text-xs text-stone-500">{label}</figcaption>
              {status && status !== "ok" && status !== "image" ? (
                // What the scorer embedded in place of a page that did not render (or never came).
                <div data-testid="failed-render">
                  <div className="aspect-square w-40 bg-black" role="img" aria-label={`${label}: scored as a black image`} />
                  <p className="mt-1 text-xs text-red-700">
                    {status === "none" ? "No page was given" : status === "timeout" ? "The page did not finish rendering in time" : "The page could not be rendered"}: it was scored as a black 224×224
                    image.
                  </p>
                </div>
              ) : id && /^[0-9a-f]{64}$/.test(id) ? (
                // eslint-disable-next-line @next/next/no-img-element
                <img src={`/api/renders/${id}`} alt={label} className="w-full" loading="lazy" />
              ) : (
                <p className="p-6 text-center text-sm text-stone-500">no render ({id ?? "none"})</p>
              )}
              {trouble ? (
                <p className="mt-1 text-xs text-stone-600" data-testid="render-trouble">
                  Render: {trouble}
                </p>
              ) : null}
            </figure>
          ))}
          {d.embedder ? (
            <p className="text-xs text-stone-500">
              similarity by {d.embedder}
              {d.profile ? `, rendered under ${profileLabel(d.profile)}` : ""}
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}
