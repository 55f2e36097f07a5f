"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";

/** Removes one repository from the shared Hugging Face cache, after asking. */
export function DeleteCached({ id }: { id: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    if (
      !window.confirm(
        `Delete ${id} from the Hugging Face cache? Python tools share it and will download it again when they need it.`,
      )
    )
      return;
    setBusy(true);
    setError(null);
    const response = await fetch("/api/models", {
      method: "DELETE",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ id }),
    });
    setBusy(false);
    if (!response.ok)
      setError(((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${response.status}`);
    else router.refresh();
  };
  return (
    <span className="flex items-center gap-2">
      <button
        type="button"
        onClick={() => void remove()}
        disabled={busy}
        aria-label={`Delete ${id}`}
        className="rounded-md px-2 py-1 text-red-700 ring-1 ring-stone-200 hover:bg-red-50 disabled:opacity-50"
      >
        Delete
      </button>
      {error ? (
        <span role="alert" className="text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}
