// The labelling desk's requests (app/api/queues/ID/…): one POST helper whose error keeps the status,
// and the shapes the desk's routes answer with.
import type { PairView } from "@/lib/label/views";
import type { MyLabel, Progress, Side } from "@/lib/store/labels";
import type { CriterionSide, Strength } from "@/lib/label/schema";
import type { GoldFeedback } from "@/lib/label/training";

export type { PairView, MyLabel, Progress, Side, GoldFeedback };

/** What a key press answers: the side as seen, a graded queue's strength, criteria, the comment. */
export interface DeskAnswer {
  side: Side;
  strength?: Strength;
  criteria?: Record<string, CriterionSide>;
}

/** A history entry as JSON carries it (dates as text). */
export type HistoryEntry = Omit<MyLabel, "createdAt"> & { createdAt: string };

export async function post<T>(queueId: number, action: string, body: unknown): Promise<T> {
  const response = await fetch(`/api/queues/${queueId}/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json().catch(() => ({}))) as T & { error?: string };
  if (!response.ok)
    throw Object.assign(new Error(json.error ?? `${response.status} ${response.statusText}`), {
      status: response.status,
    });
  return json;
}

export const statusOf = (error: unknown) => (error as { status?: number }).status;
