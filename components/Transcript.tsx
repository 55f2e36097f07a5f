import type { ReactNode } from "react";
import type { SeatTurn } from "@/lib/play/seat-turns";
import type { RankedCandidate } from "@/lib/store/sweet";
import { Candidates } from "@/components/replay/Candidates";

export interface SpeakerNames {
  agent: string;
  simulator: string;
}

/** "0.84 s", "12.3 s", "2 min 5 s". */
export function seconds(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const DEFAULT_NAMES: SpeakerNames = { agent: "agent", simulator: "simulated human" };

/** The dialogue turn by turn: who spoke, what counted, and behind toggles what was raw and what was sent. */
export function Transcript({
  turns,
  names = DEFAULT_NAMES,
  selected,
  candidates,
  taskOpens = true,
  turnExtra,
}: {
  turns: SeatTurn[];
  names?: SpeakerNames;
  /** Whether turn 0 is the task's description (false where the benchmark's simulator opens in its own words). */
  taskOpens?: boolean;
  selected?: number;
  /** SWEET-RL candidates by turn index, best advantage first. */
  candidates?: Record<number, RankedCandidate[]>;
  /** More beside a turn's header (a live advantage). */
  turnExtra?: (turn: SeatTurn) => ReactNode;
}) {
  return (
    <ol className="space-y-3" data-testid="transcript">
      {turns.map((turn) => (
        <li
          key={turn.index}
          id={`turn-${turn.index}`}
          data-testid="turn"
          data-role={turn.role}
          aria-current={selected === turn.index ? "step" : undefined}
          className={`min-w-0 scroll-mt-20 rounded-lg border p-4 ${turn.role === "agent" ? "border-sky-200 bg-sky-50/50" : "border-stone-200 bg-white"} ${selected === turn.index ? "ring-2 ring-teal-600" : ""}`}
        >
          <div className="mb-1 flex flex-wrap items-center gap-x-2 text-xs font-medium uppercase tracking-wide text-stone-500">
            <span>
              {turn.index === 0 && taskOpens ? "task" : turn.role === "agent" ? names.agent : names.simulator}
            </span>
            <span className="font-mono normal-case text-stone-400">turn {turn.index}</span>
            {turn.usage ? (
              <span className="normal-case text-stone-400" data-testid="turn-tokens">
                {turn.usage.promptTokens}+{turn.usage.completionTokens} tokens
              </span>
            ) : null}
            {typeof turn.waitMs === "number" ? (
              <span
                className="normal-case text-stone-400"
                data-testid="turn-wait"
                title={
                  turn.prompt
                    ? "how long the model server took to answer, retries included"
                    : "how long the move took to come"
                }
              >
                {seconds(turn.waitMs)}
              </span>
            ) : null}
            {typeof turn.advantage === "number" ? (
              <span className={`font-mono normal-case ${turn.advantage >= 0 ? "text-emerald-700" : "text-rose-700"}`}>
                advantage {turn.advantage.toFixed(3)}
              </span>
            ) : null}
            {turnExtra?.(turn)}
          </div>
          <div className="whitespace-pre-wrap font-mono text-sm text-stone-800 [overflow-wrap:anywhere]">
            {turn.content}
          </div>
          {turn.renderId ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img
              src={`/api/renders/${turn.renderId}`}
              alt={`Render of the agent's page at turn ${turn.index}`}
              className="mt-3 max-h-96 max-w-full rounded border border-stone-200"
              loading="lazy"
            />
          ) : null}
          {turn.rawOutput && turn.rawOutput !== turn.content ? (
            <details className="mt-2 text-sm">
              <summary className="cursor-pointer text-stone-500">Raw output</summary>
              <pre className="mt-1 whitespace-pre-wrap rounded bg-stone-100 p-2 text-xs [overflow-wrap:anywhere]">
                {turn.rawOutput}
              </pre>
            </details>
          ) : null}
          {candidates?.[turn.index]?.length ? <Candidates candidates={candidates[turn.index]!} /> : null}
          {turn.prompt ? (
            <details className="mt-2 text-sm">
              <summary className="cursor-pointer text-stone-500">Prompt as sent</summary>
              <pre className="mt-1 max-h-96 overflow-auto whitespace-pre-wrap rounded bg-stone-100 p-2 text-xs [overflow-wrap:anywhere]">
                {JSON.stringify(turn.prompt, null, 2)}
              </pre>
            </details>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
