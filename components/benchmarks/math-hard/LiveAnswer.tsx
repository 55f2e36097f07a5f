import type { SeatTurn } from "@/lib/play/seat-turns";

/** The agent's latest message while the episode plays: its answer so far. */
export function MathHardLiveAnswer({
  latest,
  code,
}: {
  taskId: number;
  latest: SeatTurn | undefined;
  code: string | null;
}) {
  return (
    <div>
      <h2 className="mb-1 text-sm font-medium text-stone-600">
        {latest ? `The agent's answer at turn ${latest.index}` : "No answer from the agent yet"}
      </h2>
      <pre className="max-h-96 overflow-y-auto whitespace-pre-wrap break-words rounded-lg bg-stone-50 p-3 text-sm text-stone-900 ring-1 ring-stone-200">
        {code ?? ""}
      </pre>
    </div>
  );
}
