"use client";

import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { RunSnapshot, StepEvent } from "@/lib/runs/snapshot";
import { episodesSearch } from "@/lib/runs/episodes-search";

// The run page's one snapshot (lib/runs/snapshot.ts), for every part of the page that shows a figure:
// the server's first one, then each whole one the run's event stream sends. Parts read it here
// rather than keeping copies, so they change together.

const Snapshot = createContext<RunSnapshot | null>(null);

/** The run page's current snapshot (inside RunSnapshotProvider). */
export function useRunSnapshot(): RunSnapshot {
  const snapshot = useContext(Snapshot);
  if (!snapshot) throw new Error("useRunSnapshot outside RunSnapshotProvider");
  return snapshot;
}

/** The stream's address for this page's table filters and order (the snapshot carries its page of episodes). */
function streamUrl(snapshot: RunSnapshot): string {
  const text = episodesSearch(snapshot.episodes.query);
  return `/api/runs/${snapshot.run.id}/events${text ? `?${text}` : ""}`;
}

export function RunSnapshotProvider({ initial, children }: { initial: RunSnapshot; children: ReactNode }) {
  const [streamed, setStreamed] = useState<RunSnapshot | null>(null);
  const initialRef = useRef(initial);
  useEffect(() => {
    initialRef.current = initial;
  }, [initial]);
  const url = streamUrl(initial);
  useEffect(() => {
    const source = new EventSource(url);
    source.addEventListener("snapshot", (event) =>
      setStreamed(JSON.parse((event as MessageEvent<string>).data) as RunSnapshot),
    );
    // A SWEET-RL step's progress between snapshots: the training-data panel's latest news, nothing else.
    source.addEventListener("pipeline", (event) => {
      const last = JSON.parse((event as MessageEvent<string>).data) as StepEvent;
      setStreamed((prev) => {
        const base = prev ?? initialRef.current;
        return base.pipeline ? { ...base, pipeline: { ...base.pipeline, last } } : base;
      });
    });
    return () => source.close();
  }, [url]);
  // A page the server rendered again (after Archive, say) may be newer than what the stream sent last.
  const shown = streamed && streamed.at >= initial.at && streamUrl(streamed) === url ? streamed : initial;
  return <Snapshot.Provider value={shown}>{children}</Snapshot.Provider>;
}

/** The clock, ticking every second from the snapshot's own time (Duration goes on between snapshots). */
export function useNow(from: number, ticking: boolean): number {
  const [now, setNow] = useState(from);
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return ticking ? Math.max(now, from) : from;
}
