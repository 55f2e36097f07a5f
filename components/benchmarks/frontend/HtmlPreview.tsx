"use client";

import { useEffect, useMemo, useState } from "react";
import { previewDocument, previewNotes } from "@/lib/colbench/offline-html";
import type { SeatTurn } from "@/lib/play/seat-turns";

/** The agent seat's workbench: the person's page in a sandboxed frame, and the last one they sent as the scorer rendered it. */
export function HtmlPreview({ code, turns }: { code: string; turns: SeatTurn[] }) {
  const lastRender = [...turns].reverse().find((t) => t.role === "agent" && t.html);
  const [shown, setShown] = useState(code);
  useEffect(() => {
    const timer = setTimeout(() => setShown(code), 300);
    return () => clearTimeout(timer);
  }, [code]);
  // No scripts, no requests beyond the studio's stylesheet and placeholders.
  const doc = useMemo(
    () => (typeof window === "undefined" ? "" : previewDocument(shown, window.location.origin)),
    [shown],
  );
  return (
    <figure className="rounded-lg border border-stone-200 bg-white p-1">
      <figcaption className="mb-1 text-xs text-stone-500">
        Live preview (offline: Tailwind 2.2.19 and placeholder images from the studio)
      </figcaption>
      <iframe title="Preview of your page" sandbox="" srcDoc={doc} className="h-96 w-full" data-testid="html-preview" />
      <PreviewNotes notes={previewNotes(shown)} />
      {lastRender ? (
        <div className="mt-2 border-t border-stone-200 pt-2" data-testid="sent-render">
          <p className="mb-1 text-xs text-stone-500">
            The page you sent at turn {lastRender.index}, as the scorer&apos;s browser rendered it (what your
            collaborator and the score see)
          </p>
          {lastRender.renderId ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img
              src={`/api/renders/${lastRender.renderId}`}
              alt={`Render of your page at turn ${lastRender.index}`}
              className="max-h-96 w-full object-contain object-top"
            />
          ) : (
            <p className="text-xs text-red-700">It could not be rendered: the scorer counts it as a black image.</p>
          )}
        </div>
      ) : null}
    </figure>
  );
}

/** Where the live preview (no scripts, offline) may differ from the page the scorer renders. */
function PreviewNotes({ notes }: { notes: string[] }) {
  if (!notes.length) return null;
  return (
    <ul className="mt-1 list-disc pl-5 text-xs text-amber-800" data-testid="preview-notes">
      {notes.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}
