"use client";

// The lead's requests to a queue's routes (app/api/queues/ID, /members, /pairs): JSON in and out, the
// server's error kept for the panel to show, the page's data read again after a change.
import { useState } from "react";
import { useRouter } from "next/navigation";

export function useQueueCall(queueId: number) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  /** Sends `body` to the queue's route `path` ("" for the queue itself); the reply, or null when refused. */
  async function call<Reply>(
    method: "PATCH" | "POST" | "DELETE",
    path: string,
    body: unknown,
    said: (reply: Reply) => string,
    options: { refresh?: boolean } = {},
  ): Promise<Reply | null> {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const response = await fetch(`/api/queues/${queueId}${path}`, {
        method,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const reply = (await response.json().catch(() => ({}))) as Reply & { error?: string };
      if (!response.ok) {
        setError(reply.error ?? `HTTP ${response.status}`);
        return null;
      }
      setDone(said(reply));
      if (options.refresh ?? true) router.refresh();
      return reply;
    } catch (e) {
      setError((e as Error).message);
      return null;
    } finally {
      setBusy(false);
    }
  }

  return { call, busy, error, done };
}
