"use client";

import { useState } from "react";
import { previewNotes } from "@/lib/colbench/offline-html";

interface Hidden {
  groundTruth: string;
  hiddenInformation: string | null;
  testCases: Array<{ name: string; expression: string }> | null;
  /** Frontend: the target as a scorer last rendered it (a render id), if any episode was scored. */
  scoredRender?: { id: string; profile: string | null } | null;
}

type State = { kind: "hidden" } | { kind: "loading" } | { kind: "error"; message: string } | { kind: "shown"; hidden: Hidden };

/** Ground truth, tests and target stay off the page until a person asks for them. */
export function HiddenInformation({ taskId, benchmark }: { taskId: number; benchmark: "backend" | "frontend" }) {
  const [state, setState] = useState<State>({ kind: "hidden" });

  async function toggle() {
    if (state.kind === "shown") return setState({ kind: "hidden" });
    setState({ kind: "loading" });
    try {
      const response = await fetch(`/api/tasks/${taskId}/hidden`);
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      setState({ kind: "shown", hidden: (await response.json()) as Hidden });
    } catch (error) {
      setState({ kind: "error", message: (error as Error).message });
    }
  }

  return (
    <section aria-labelledby="hidden-heading" className="mt-6">
      <div className="flex items-center justify-between">
        <h2 id="hidden-heading" className="text-sm font-medium text-stone-500">
          Hidden information (simulator and reviewers only)
        </h2>
        <button
          type="button"
          onClick={toggle}
          aria-expanded={state.kind === "shown"}
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-1.5 text-sm font-medium text-amber-900 hover:bg-amber-100"
        >
          {state.kind === "shown" ? "Hide hidden information" : state.kind === "loading" ? "Loading…" : "Reveal hidden information"}
        </button>
      </div>
      {state.kind === "error" ? <p className="mt-2 text-sm text-red-700">Could not load it: {state.message}</p> : null}
      {state.kind === "shown" ? (
        benchmark === "backend" ? (
          <BackendHidden hidden={state.hidden} />
        ) : (
          <FrontendHidden taskId={taskId} html={state.hidden.groundTruth} scored={state.hidden.scoredRender ?? null} />
        )
      ) : null}
    </section>
  );
}

function BackendHidden({ hidden }: { hidden: Hidden }) {
  return (
    <div className="mt-3 space-y-4" data-testid="hidden-information">
      <div>
        <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">Reference solution</h3>
        <pre className="overflow-x-auto rounded-lg bg-stone-900 p-4 font-mono text-sm leading-relaxed text-stone-100">{hidden.groundTruth}</pre>
      </div>
      <div>
        <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">Hidden tests ({hidden.testCases?.length ?? 0})</h3>
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

function FrontendHidden({ taskId, html, scored }: { taskId: number; html: string; scored: { id: string; profile: string | null } | null }) {
  const notes = previewNotes(html);
  return (
    <div className="mt-3 space-y-4" data-testid="hidden-information">
      <div className="grid gap-4 lg:grid-cols-2">
        <div>
          <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">Target page (live preview)</h3>
          {/* No scripts, no same-origin access; the preview route also forbids any request off this server. */}
          <iframe title="Target page" src={`/api/tasks/${taskId}/preview`} sandbox="" className="h-[36rem] w-full rounded-lg border border-stone-200 bg-white" />
          {notes.length ? (
            <ul className="mt-1 list-disc pl-5 text-xs text-amber-800" data-testid="preview-notes">
              {notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          ) : null}
        </div>
        <figure>
          <figcaption className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">As the scorer rendered it{scored?.profile ? ` (${scored.profile})` : ""}</figcaption>
          {scored ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img src={`/api/renders/${scored.id}`} alt="The target as the scorer rendered it" className="w-full rounded-lg border border-stone-200" data-testid="scored-render" />
          ) : (
            <p className="rounded-lg border border-dashed border-stone-300 p-6 text-center text-sm text-stone-500">No episode of this task has been scored yet, so there is no screenshot of it.</p>
          )}
        </figure>
      </div>
      <details>
        <summary className="cursor-pointer text-sm text-stone-600">Target HTML</summary>
        <pre className="mt-2 max-h-96 overflow-auto rounded-lg bg-stone-900 p-4 font-mono text-xs text-stone-100">{html}</pre>
      </details>
    </div>
  );
}
