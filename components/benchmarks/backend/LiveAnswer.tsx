import type { SeatTurn } from "@/lib/play/seat-turns";
import { CodeEditor } from "@/components/code";

/** The agent's latest code while the episode plays. */
export function BackendLiveAnswer({
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
        {latest ? `The agent's code at turn ${latest.index}` : "No code from the agent yet"}
      </h2>
      <CodeEditor
        value={code ?? ""}
        language="python"
        readOnly
        height={360}
        label="The agent's latest code (read-only)"
      />
    </div>
  );
}
