import type { SeatTurn } from "@/lib/play/seat-turns";

/** The agent's latest page as rendered, beside the target, while the episode plays. */
export function FrontendLiveAnswer({
  taskId,
  latest,
}: {
  taskId: number;
  latest: SeatTurn | undefined;
  code: string | null;
}) {
  return (
    <div className="grid grid-cols-2 gap-2">
      <figure className="rounded border border-stone-200 bg-white p-1">
        <figcaption className="mb-1 text-xs text-stone-500">
          {latest ? `Agent's page, turn ${latest.index}` : "No page yet"}
        </figcaption>
        {latest?.renderId ? (
          // eslint-disable-next-line @next/next/no-img-element
          <img
            src={`/api/renders/${latest.renderId}`}
            alt="The agent's latest page"
            className="w-full"
            data-testid="live-render"
          />
        ) : null}
      </figure>
      <figure className="rounded border border-stone-200 bg-white p-1">
        <figcaption className="mb-1 text-xs text-stone-500">Target page</figcaption>
        <iframe title="Target page" src={`/api/tasks/${taskId}/preview`} sandbox="" className="h-80 w-full" />
      </figure>
    </div>
  );
}
