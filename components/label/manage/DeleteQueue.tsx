"use client";

import Link from "next/link";
import { useState } from "react";
import { CallStatus } from "./CallStatus";
import { field, heading, panel } from "./panel";
import { useQueueCall } from "./useQueueCall";

/**
 * Deletes the queue with its pairs and labels, once the studio has written every label to a new file
 * in its data folder and read it back (as `colbench queues delete --export`); the queue's name, typed
 * again, confirms it.
 */
export function DeleteQueue({ queueId, name, labels }: { queueId: number; name: string; labels: number }) {
  const { call, busy, error, done } = useQueueCall(queueId);
  const [typed, setTyped] = useState("");
  const [gone, setGone] = useState(false);
  return (
    <section className={`${panel} border-red-200`} data-testid="delete-queue">
      <h2 className={heading}>Delete the queue</h2>
      {gone ? (
        <p className="text-sm">
          <Link href="/annotate" className="text-teal-700 underline">
            Back to the queues
          </Link>
        </p>
      ) : (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void call<{ labels: number; file: string }>(
              "DELETE",
              "",
              { confirm: typed },
              (r) => `Deleted. Its ${r.labels} labels were written first to ${r.file}.`,
              { refresh: false },
            ).then((reply) => setGone(reply !== null));
          }}
        >
          <p className="w-full text-sm text-stone-600">
            Its {labels} labels are written to a new file in the studio&apos;s data folder (exports/) and read back
            before anything is deleted. Download them yourself first if you like:{" "}
            <a href={`/api/queues/${queueId}/export?format=raw`} className="text-teal-700 underline">
              raw labels
            </a>
            .
          </p>
          <label className="flex flex-col gap-1 text-xs text-stone-600">
            Type the queue&apos;s name to confirm
            <input value={typed} onChange={(e) => setTyped(e.target.value)} className={field} name="confirm" />
          </label>
          <button
            type="submit"
            disabled={busy || typed !== name}
            className="rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-50"
          >
            Delete with its labels
          </button>
        </form>
      )}
      <CallStatus error={error} done={done} testId="delete" />
    </section>
  );
}
