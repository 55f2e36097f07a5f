import { previewNotes } from "@/lib/colbench/offline-html";
import type { RevealedHidden } from "../views";

/** The target page: live in a sandboxed frame, as the scorer last rendered it, and its HTML. */
export function FrontendHidden({ taskId, hidden }: { taskId: number; hidden: RevealedHidden }) {
  const html = hidden.groundTruth;
  const scored = hidden.scoredRender ?? null;
  const notes = previewNotes(html);
  return (
    <div className="mt-3 space-y-4" data-testid="hidden-information">
      <div className="grid gap-4 lg:grid-cols-2">
        <div>
          <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">
            Target page (live preview)
          </h3>
          {/* No scripts, no same-origin access; the preview route also forbids any request off this server. */}
          <iframe
            title="Target page"
            src={`/api/tasks/${taskId}/preview`}
            sandbox=""
            className="h-[36rem] w-full rounded-lg border border-stone-200 bg-white"
          />
          {notes.length ? (
            <ul className="mt-1 list-disc pl-5 text-xs text-amber-800" data-testid="preview-notes">
              {notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          ) : null}
        </div>
        <figure>
          <figcaption className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">
            As the scorer rendered it{scored?.profile ? ` (${scored.profile})` : ""}
          </figcaption>
          {scored ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img
              src={`/api/renders/${scored.id}`}
              alt="The target as the scorer rendered it"
              className="w-full rounded-lg border border-stone-200"
              data-testid="scored-render"
            />
          ) : (
            <p className="rounded-lg border border-dashed border-stone-300 p-6 text-center text-sm text-stone-500">
              No episode of this task has been scored yet, so there is no screenshot of it.
            </p>
          )}
        </figure>
      </div>
      <details>
        <summary className="cursor-pointer text-sm text-stone-600">Target HTML</summary>
        <pre className="mt-2 max-h-96 overflow-auto rounded-lg bg-stone-900 p-4 font-mono text-xs text-stone-100">
          {html}
        </pre>
      </details>
    </div>
  );
}
