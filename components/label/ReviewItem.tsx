"use client";

// One pair on the review page: its labels with accept / reject, and for a pair people split on
// (or any pair) a decision with its reason. Each press is one request, then the page is read again.
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { BoardItem } from "@/lib/label/review";

const NAMES: Record<string, string> = {
  a: "A",
  b: "B",
  tie: "tie",
  both_bad: "both bad",
  split: "split",
  none: "none (every label rejected)",
};

async function send(queueId: number, action: string, body: unknown): Promise<string | null> {
  const response = await fetch(`/api/queues/${queueId}/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (response.ok) return null;
  return ((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${response.status}`;
}

export function ReviewItem({ queueId, item }: { queueId: number; item: BoardItem }) {
  const router = useRouter();
  const [reason, setReason] = useState(item.adjudication?.reason ?? "");
  const [error, setError] = useState<string | null>(null);
  const act = async (action: string, body: unknown) => {
    setError(await send(queueId, action, body));
    router.refresh();
  };
  const small = "rounded border px-2 py-0.5 text-xs";
  return (
    <div
      className="mt-2 rounded-lg border border-stone-200 bg-white p-3 text-sm"
      data-testid="review-item"
      data-item={item.itemId}
    >
      <p className="mb-2">
        Outcome: <strong data-testid="review-outcome">{NAMES[item.outcome]}</strong>{" "}
        {item.decidedBy === "adjudication" ? (
          <span className="text-sky-800">
            decided by {item.adjudication!.user}
            {item.adjudication!.reason ? `: ${item.adjudication!.reason}` : ""}
          </span>
        ) : (
          <span className="text-stone-500">(majority of the labels not rejected)</span>
        )}
      </p>
      <table className="w-full">
        <tbody className="divide-y divide-stone-100">
          {item.labels.map((l) => (
            <tr key={l.id} data-testid="review-label" data-review={l.review ?? ""}>
              <td className="w-28 py-1">{l.user}</td>
              <td className="w-40 py-1 font-medium">
                {NAMES[l.choice]}
                {l.strength ? ` (${l.strength})` : ""}
                {l.version > 1 ? <span className="ml-1 text-xs text-stone-500">v{l.version}</span> : null}
              </td>
              <td className="py-1 text-stone-600">{l.comment ?? ""}</td>
              <td className="w-48 py-1 text-right">
                {l.review ? (
                  <span className={`mr-2 text-xs ${l.review === "rejected" ? "text-red-700" : "text-green-700"}`}>
                    {l.review}
                  </span>
                ) : null}
                <button
                  type="button"
                  className={`${small} border-green-700 text-green-800`}
                  onClick={() => void act("review", { labelId: l.id, verdict: "accepted" })}
                >
                  Accept
                </button>{" "}
                <button
                  type="button"
                  className={`${small} border-red-700 text-red-800`}
                  onClick={() => void act("review", { labelId: l.id, verdict: "rejected" })}
                >
                  Reject
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <span className="text-stone-600">Decide:</span>
        {(["a", "b", "tie", "both_bad"] as const).map((c) => (
          <button
            key={c}
            type="button"
            className={`${small} border-sky-700 text-sky-900`}
            onClick={() => void act("adjudicate", { itemId: item.itemId, choice: c, reason: reason || null })}
          >
            {NAMES[c]}
          </button>
        ))}
        <input
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder="why (kept with the decision)"
          aria-label="Reason for the decision"
          className="min-w-48 flex-1 rounded border border-stone-300 px-2 py-0.5"
        />
      </div>
      {error ? <p className="mt-1 text-red-700">{error}</p> : null}
    </div>
  );
}
