"use client";

import { useEffect } from "react";
import { useRouter } from "next/navigation";

/** Left/right arrow keys (or k/j) move to the previous/next item, unless the person is typing. */
export function KeyNav({ previous, next }: { previous: string | null; next: string | null }) {
  const router = useRouter();
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
      if ((event.key === "ArrowLeft" || event.key === "k") && previous) router.push(previous);
      if ((event.key === "ArrowRight" || event.key === "j") && next) router.push(next);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [previous, next, router]);
  return null;
}
