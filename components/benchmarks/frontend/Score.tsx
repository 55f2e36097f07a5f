import { profileLabel } from "@/lib/colbench/render-profile";
import type { ScoreProps } from "../views";

/** Both final renders as the scorer saw them (a page that did not render was scored as a black image). */
export function FrontendScore({ details: d, targetWithheld }: ScoreProps) {
  return (
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
              <div
                className="aspect-square w-40 bg-black"
                role="img"
                aria-label={`${label}: scored as a black image`}
              />
              <p className="mt-1 text-xs text-red-700">
                {status === "none"
                  ? "No page was given"
                  : status === "timeout"
                    ? "The page did not finish rendering in time"
                    : "The page could not be rendered"}
                : it was scored as a black 224×224 image.
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
  );
}
