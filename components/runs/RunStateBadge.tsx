import { RUN_STATE_MEANING, type RunStateWord } from "@/lib/runs/run-state";
import { STATE_LOOK } from "./state-look";

/** A run's state word, with what it means on hover. */
export function RunStateBadge({ state, testId }: { state: RunStateWord; testId?: string }) {
  return (
    <span
      className={`rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${STATE_LOOK[state]}`}
      title={RUN_STATE_MEANING[state]}
      data-testid={testId}
      data-state={state}
    >
      {state}
    </span>
  );
}
