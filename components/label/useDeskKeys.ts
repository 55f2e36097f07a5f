"use client";

// The desk's keyboard: answers by digit (the queue's own list), u undo, s skip, l later, b broken,
// h history, c the comment box, Esc back from a reopened label. Keys typed in a box are the box's.
import { useEffect } from "react";
import type { LabelSchema } from "@/lib/label/schema";
import type { DeskAnswer } from "./desk-api";
import type { PassKind } from "./desk-actions";
import { answerForKey } from "./AnswerButtons";

export interface DeskKeys {
  schema: LabelSchema;
  onAnswer: (answer: DeskAnswer) => void;
  onUndo: () => void;
  onPass: (kind: PassKind) => void;
  onHistory: () => void;
  onComment: () => void;
  onEscape: () => void;
}

const PASS_KEYS: Record<string, PassKind> = { s: "skip", l: "later", b: "broken" };

export function useDeskKeys(keys: DeskKeys) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (
        target?.closest("input, textarea, select, [contenteditable=true]") ||
        event.metaKey ||
        event.ctrlKey ||
        event.altKey
      )
        return;
      const answer = answerForKey(keys.schema, event.key);
      const act = answer
        ? () => keys.onAnswer(answer)
        : PASS_KEYS[event.key]
          ? () => keys.onPass(PASS_KEYS[event.key]!)
          : (
              { u: keys.onUndo, h: keys.onHistory, c: keys.onComment, Escape: keys.onEscape } as Record<
                string,
                (() => void) | undefined
              >
            )[event.key];
      if (!act) return;
      event.preventDefault();
      act();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [keys]);
}
