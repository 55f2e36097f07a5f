"use client";

import { useEffect, useRef, useState } from "react";

/**
 * Which proposal is shown: the first, or the one in force at the turn the URL names; "[" and "]" (or ↑/↓)
 * and the buttons step through them, and the transcript follows the person's stepping.
 */
export function useProposalSteps(proposals: ReadonlyArray<{ index: number }>): {
  at: number;
  step: (by: number) => void;
} {
  // The first proposal, or the one in force at the turn the URL names (#turn-N).
  const [at, setAt] = useState(0);
  const moved = useRef(false);
  useEffect(() => {
    // Only until the person steps: a live episode's page is refreshed as turns arrive (new `proposals`), and
    // that must not send them back to the turn the URL named.
    if (moved.current) return;
    const named = /^#turn-(\d+)$/.exec(window.location.hash);
    if (!named) return;
    const turn = Number(named[1]);
    const last = proposals.reduce((found, p, i) => (p.index <= turn ? i : found), 0);
    // The URL's hash exists only in the browser, after mounting; the server renders the first proposal.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setAt(last);
  }, [proposals]);
  const current = proposals[at];

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (
        target?.closest("input, textarea, select, [contenteditable=true], .monaco-editor") ||
        event.metaKey ||
        event.ctrlKey ||
        event.altKey
      )
        return;
      const step =
        event.key === "]" || event.key === "ArrowDown" ? 1 : event.key === "[" || event.key === "ArrowUp" ? -1 : 0;
      if (!step) return;
      event.preventDefault();
      moved.current = true;
      setAt((i) => Math.min(proposals.length - 1, Math.max(0, i + step)));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [proposals.length]);

  // Follow the person's stepping; opening the page leaves the scroll where the browser put it.
  useEffect(() => {
    if (current && moved.current)
      document.getElementById(`turn-${current.index}`)?.scrollIntoView({ block: "nearest" });
  }, [current]);
  const step = (by: number) => {
    moved.current = true;
    setAt((i) => Math.min(proposals.length - 1, Math.max(0, i + by)));
  };
  return { at, step };
}
