"use client";

import { useState } from "react";
import { CallStatus } from "./CallStatus";
import { button, field, heading, panel, primary } from "./panel";
import { useQueueCall } from "./useQueueCall";

export type QueueState = "open" | "closed" | "archived";

const STATE_WORDS: Record<QueueState, string> = {
  open: "Open: pairs are handed out and labelled.",
  closed: "Closed: no pair is handed out or labelled; every label is kept.",
  archived: "Archived: closed and left out of the queue list; every label is kept.",
};

/** A queue's state (close, archive, open again), its training mode and its instructions. */
export function QueueSettings({
  queueId,
  state,
  trainingMode,
  gold,
  instructions,
}: {
  queueId: number;
  state: QueueState;
  trainingMode: boolean;
  gold: number;
  instructions: string;
}) {
  const { call, busy, error, done } = useQueueCall(queueId);
  const [text, setText] = useState(instructions);
  const change = (body: Record<string, unknown>, said: string) =>
    void call<{ queue: string }>("PATCH", "", body, () => said);

  return (
    <section className={panel} data-testid="queue-settings">
      <h2 className={heading}>State</h2>
      <p className="text-sm text-stone-700" data-testid="queue-state" data-state={state}>
        {STATE_WORDS[state]}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        {state === "open" ? (
          <button
            type="button"
            className={button}
            disabled={busy}
            onClick={() => change({ state: "closed" }, "Closed.")}
          >
            Close
          </button>
        ) : (
          <button
            type="button"
            className={button}
            disabled={busy}
            onClick={() => change({ state: "open" }, "Open again.")}
          >
            Reopen
          </button>
        )}
        {state !== "archived" ? (
          <button
            type="button"
            className={button}
            disabled={busy}
            onClick={() => change({ state: "archived" }, "Archived.")}
          >
            Archive
          </button>
        ) : null}
      </div>
      <h2 className={`${heading} mt-4`}>Training mode</h2>
      <label className="flex items-start gap-2 text-sm text-stone-700">
        <input
          type="checkbox"
          checked={trainingMode}
          disabled={busy}
          data-testid="training-mode"
          onChange={(e) =>
            change({ trainingMode: e.target.checked }, e.target.checked ? "Training mode on." : "Training mode off.")
          }
          className="mt-1"
        />
        <span>
          After a gold pair is labelled (and only then), the person sees whether their label matched the known answer
          and why, before the next pair; that label can no longer be undone or changed.
          {gold === 0 ? <span className="text-amber-700"> This queue has no gold pairs yet.</span> : null}
        </span>
      </label>
      <h2 className={`${heading} mt-4`}>Instructions (Markdown, above every pair)</h2>
      <textarea
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={5}
        className={`${field} w-full font-mono`}
        aria-label="Instructions"
        data-testid="instructions-editor"
      />
      <button
        type="button"
        className={`${primary} mt-2`}
        disabled={busy || text === instructions}
        onClick={() => change({ instructions: text }, "Instructions saved.")}
      >
        Save instructions
      </button>
      <CallStatus error={error} done={done} testId="settings" />
    </section>
  );
}
