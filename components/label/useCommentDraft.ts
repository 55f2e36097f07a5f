"use client";

// The comment box's text for the pair on screen, kept in this browser's localStorage under the
// queue and pair, so a reload (or a crash) does not lose what was typed; cleared once stored.
import { useCallback, useEffect, useState } from "react";

const keyOf = (queueId: number, itemId: number | null) => `colbench:label-draft:${queueId}:${itemId ?? "none"}`;

function read(key: string): string {
  try {
    return window.localStorage.getItem(key) ?? "";
  } catch {
    return "";
  }
}

function write(key: string, text: string) {
  try {
    if (text) window.localStorage.setItem(key, text);
    else window.localStorage.removeItem(key);
  } catch {
    // Storage full or refused (a private window): the draft lives only in the page.
  }
}

/** `fallback`: the text when no draft is kept (a reopened label's own comment). */
export function useCommentDraft(queueId: number, itemId: number | null, fallback = "") {
  const [comment, setComment] = useState("");
  useEffect(() => {
    // Drafts live in this browser's storage, read after mounting and for each pair shown.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setComment(itemId === null ? "" : read(keyOf(queueId, itemId)) || fallback);
  }, [queueId, itemId, fallback]);
  const change = useCallback(
    (text: string) => {
      setComment(text);
      if (itemId !== null) write(keyOf(queueId, itemId), text);
    },
    [queueId, itemId],
  );
  /** The label is stored: its draft goes. */
  const clear = useCallback(
    (forItem: number) => {
      write(keyOf(queueId, forItem), "");
      if (forItem === itemId) setComment("");
    },
    [queueId, itemId],
  );
  return { comment, change, clear };
}
