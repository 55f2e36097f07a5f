"use client";

// A lead's setting of a queue's per-person quota (PATCH /api/queues/ID, as `colbench queues quota`):
// the most pairs one person labels; a person at it is handed no more, their labels kept.
import { useState } from "react";
import { useRouter } from "next/navigation";

export function QuotaSetting({ queueId, quota }: { queueId: number; quota: number | null }) {
  const router = useRouter();
  const [text, setText] = useState(quota === null ? "" : String(quota));
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (value: number | null) => {
    setBusy(true);
    setMessage(null);
    try {
      const response = await fetch(`/api/queues/${queueId}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ quota: value }),
      });
      const json = (await response.json().catch(() => ({}))) as { error?: string };
      if (!response.ok) throw new Error(json.error ?? `${response.status} ${response.statusText}`);
      setText(value === null ? "" : String(value));
      setMessage(value === null ? "No cap now." : `Saved: ${value} pairs per person.`);
      router.refresh();
    } catch (error) {
      setMessage((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="mb-4 flex flex-wrap items-center gap-2 text-sm text-stone-700"
      data-testid="quota-setting"
      onSubmit={(e) => {
        e.preventDefault();
        const value = text.trim() ? Number(text) : null;
        if (value !== null && !(Number.isSafeInteger(value) && value >= 1)) {
          setMessage("quota: a whole number of pairs, at least 1 (or empty for no cap)");
          return;
        }
        void save(value);
      }}
    >
      <label htmlFor="quota">Pairs per person (quota):</label>
      <input
        id="quota"
        type="number"
        min={1}
        step={1}
        value={text}
        placeholder="no cap"
        onChange={(e) => setText(e.target.value)}
        className="w-24 rounded-md border border-stone-300 bg-white px-2 py-1"
      />
      <button type="submit" disabled={busy} className="rounded-md border border-stone-300 bg-white px-2 py-1">
        Save
      </button>
      {quota !== null ? (
        <button
          type="button"
          disabled={busy}
          onClick={() => void save(null)}
          className="rounded-md border border-stone-300 bg-white px-2 py-1"
        >
          No cap
        </button>
      ) : null}
      {message ? (
        <span role="status" className="text-stone-600">
          {message}
        </span>
      ) : null}
    </form>
  );
}
