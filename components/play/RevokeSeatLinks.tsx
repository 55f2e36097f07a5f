"use client";

import { useState } from "react";

/** Ends every seat link of one played episode (the people holding them are out at once). */
export function RevokeSeatLinks({ episodeId }: { episodeId: number }) {
  const [state, setState] = useState<string | null>(null);
  async function revoke() {
    setState("revoking…");
    try {
      const response = await fetch(`/api/episodes/${episodeId}/seat-links`, { method: "DELETE" });
      const body = (await response.json().catch(() => ({}))) as { revoked?: number; error?: string };
      setState(response.ok ? `${body.revoked ?? 0} revoked` : (body.error ?? `HTTP ${response.status}`));
    } catch (e) {
      // A request that never got an answer would otherwise leave "revoking…" standing.
      setState(e instanceof Error ? e.message : String(e));
    }
  }
  return (
    <button
      type="button"
      onClick={() => void revoke()}
      className="text-xs text-red-700 hover:underline"
      data-testid={`revoke-links-${episodeId}`}
      title="Seat links of this session stop working, and the browsers that opened them are out"
    >
      {state ?? "revoke links"}
    </button>
  );
}
