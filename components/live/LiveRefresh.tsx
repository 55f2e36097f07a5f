"use client";

import { useEffect } from "react";
import { useRouter } from "next/navigation";

/** Re-renders a server page when a run starts or ends, so tables of runs stay current without reloading. */
export function LiveRefresh() {
  const router = useRouter();
  useEffect(() => {
    const source = new EventSource("/api/events");
    let timer: ReturnType<typeof setTimeout> | null = null;
    source.addEventListener("run", () => {
      timer ??= setTimeout(() => {
        timer = null;
        router.refresh();
      }, 300);
    });
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [router]);
  return null;
}
