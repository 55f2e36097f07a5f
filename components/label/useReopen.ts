"use client";

// "Your labels": the person's history at this desk, and one label reopened to change. A change is
// stored as the label's new version (the old one kept); the pair on screen stays held meanwhile.
import { useCallback, useRef, useState } from "react";
import { post, type DeskAnswer, type HistoryEntry, type PairView, type Progress } from "./desk-api";

export interface Reopened {
  pair: PairView;
  label: HistoryEntry;
}

export function useReopen(queueId: number, say: (message: string) => void, onProgress: (p: Progress) => void) {
  const [open, setOpen] = useState(false);
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [reopened, setReopened] = useState<Reopened | null>(null);
  const [saving, setSaving] = useState(false);
  const shownAt = useRef(0);

  const load = useCallback(async () => {
    try {
      setEntries((await post<{ labels: HistoryEntry[] }>(queueId, "history", {})).labels);
    } catch (error) {
      say((error as Error).message);
    }
  }, [queueId, say]);

  const toggle = useCallback(() => {
    setOpen((was) => {
      if (!was) void load();
      return !was;
    });
  }, [load]);

  const reopen = useCallback(
    async (itemId: number) => {
      try {
        setReopened(await post<Reopened>(queueId, "reopen", { itemId }));
        shownAt.current = Date.now();
        window.scrollTo({ top: 0 });
      } catch (error) {
        say((error as Error).message);
      }
    },
    [queueId, say],
  );

  const save = useCallback(
    async (answer: DeskAnswer, comment: string): Promise<boolean> => {
      if (!reopened || saving) return false;
      setSaving(true);
      try {
        const got = await post<{ version: number; progress: Progress }>(queueId, "revise", {
          itemId: reopened.pair.itemId,
          ...answer,
          comment: comment || null,
          ms: Date.now() - shownAt.current,
        });
        onProgress(got.progress);
        say(
          `Changed: your label on pair ${reopened.pair.itemId} is now version ${got.version} (the earlier one is kept).`,
        );
        setReopened(null);
        void load();
        return true;
      } catch (error) {
        say(`Not changed: ${(error as Error).message}`);
        return false;
      } finally {
        setSaving(false);
      }
    },
    [queueId, reopened, saving, say, onProgress, load],
  );

  return { open, toggle, entries, reopened, reopen, close: () => setReopened(null), save, saving, refresh: load };
}
