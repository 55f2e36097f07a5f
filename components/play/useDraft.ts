"use client";

import { useCallback, useEffect, useState } from "react";

/**
 * Text a person is writing in a seat, kept in this browser per episode and seat, so a reload or a
 * closed tab finds it again. Read after mounting (the server renders `initial`).
 */
export function useDraft(
  key: string,
  initial: string,
): { value: string; set: (value: string) => void; clear: () => void; restored: boolean } {
  const storageKey = `colbench:draft:${key}`;
  const [value, setValue] = useState(initial);
  const [restored, setRestored] = useState(false);
  useEffect(() => {
    const saved = window.localStorage.getItem(storageKey);
    if (saved !== null) {
      // This browser's storage exists only after mounting; reading it during render would make the first
      // client render differ from the server's.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setValue(saved);
      setRestored(true);
    }
  }, [storageKey]);
  const set = useCallback(
    (next: string) => {
      setValue(next);
      try {
        window.localStorage.setItem(storageKey, next);
      } catch {
        // A full or disabled storage only loses the draft's safety net, not the text on screen.
      }
    },
    [storageKey],
  );
  /** Back to the initial text, and nothing kept (the draft was sent). */
  const clear = useCallback(() => {
    window.localStorage.removeItem(storageKey);
    setValue(initial);
    setRestored(false);
  }, [storageKey, initial]);
  return { value, set, clear, restored };
}
