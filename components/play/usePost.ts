"use client";

import { useState } from "react";

/** Posts a person's move; remembers the server's refusal so the page can say why. */
export function useMove(episodeId: number, role: "agent" | "simulator") {
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function send(text: string): Promise<boolean> {
    setSending(true);
    setError(null);
    try {
      const response = await fetch(`/api/episodes/${episodeId}/move`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ role, text }),
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { error?: string };
        setError(body.error ?? `HTTP ${response.status}`);
        return false;
      }
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    } finally {
      setSending(false);
    }
  }
  return { send, sending, error };
}
