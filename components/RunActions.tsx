"use client";

import { useRef, useState } from "react";
import { useRouter } from "next/navigation";

/** Archive or restore a run, or delete it after a confirmation that says what goes with it. */
export function RunActions({
  runId,
  name,
  archived,
  episodes,
}: {
  runId: number;
  name: string;
  archived: boolean;
  episodes: number;
}) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const call = async (url: string, init: RequestInit, then: () => void) => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(url, init);
      if (!response.ok) {
        setError(((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${response.status}`);
        return;
      }
      then();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const archive = () =>
    call(
      `/api/runs/${runId}/archive`,
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ archived: !archived }),
      },
      () => router.refresh(),
    );
  const remove = () =>
    call(`/api/runs/${runId}`, { method: "DELETE" }, () => {
      dialog.current?.close();
      router.push("/runs");
      router.refresh();
    });

  const button =
    "rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm hover:bg-stone-100 disabled:opacity-50";
  return (
    <div className="flex items-center gap-2">
      <button type="button" className={button} disabled={busy} onClick={() => void archive()}>
        {archived ? "Restore" : "Archive"}
      </button>
      <button
        type="button"
        className={`${button} text-red-700`}
        disabled={busy}
        onClick={() => dialog.current?.showModal()}
      >
        Delete…
      </button>
      {error ? (
        <span role="alert" className="text-sm text-red-700">
          {error}
        </span>
      ) : null}
      <dialog
        ref={dialog}
        aria-labelledby="delete-title"
        className="m-auto max-w-md rounded-lg p-6 shadow-xl backdrop:bg-stone-900/40"
      >
        <h2 id="delete-title" className="text-lg font-semibold text-stone-900">
          Delete {name}?
        </h2>
        <p className="mt-2 text-sm text-stone-600">
          Its {episodes} episode{episodes === 1 ? "" : "s"}, their turns, candidates, pairs and labels, and the renders
          no other run uses are removed. Tasks and other runs stay. This cannot be undone; archiving hides a run and
          keeps it.
        </p>
        {error ? (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <div className="mt-5 flex justify-end gap-2">
          <button type="button" className={button} onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button
            type="button"
            className="rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-50"
            disabled={busy}
            onClick={() => void remove()}
          >
            Delete run
          </button>
        </div>
      </dialog>
    </div>
  );
}
