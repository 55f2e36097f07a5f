"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";

// One way for the run page's header to change a run's name, notes or tags: PATCH /api/runs/ID, then
// the page is rendered again (a finished run's stream sends nothing new by itself), and what the
// studio refused is said where it was typed.

export interface RunEdit {
  name?: string;
  notes?: string;
  tags?: { add?: string[]; remove?: string[] };
}

export function useRunEdit(runId: number) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** True once stored; false when refused (the reason is in `error`). */
  const save = async (edit: RunEdit): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(`/api/runs/${runId}`, {
        method: "PATCH",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(edit),
      });
      if (!response.ok) {
        setError(((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${response.status}`);
        return false;
      }
      router.refresh();
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { save, busy, error, clearError: () => setError(null) };
}
