"use client";

import { useEffect, useState } from "react";
import type { ServerWait } from "@/lib/colbench/failure";
import type { Seat, SeatAwaiting, SeatFailure, SeatTurn } from "@/lib/play/seat-turns";

export interface EpisodeStreamState {
  connected: boolean;
  turns: SeatTurn[];
  status: string;
  reward: number | null;
  /** Whether the episode's run is playing in the studio now. */
  playing: boolean;
  awaiting: SeatAwaiting | null;
  /** The model server the episode waits for while it is down. */
  waiting: ServerWait | null;
  /** Why it failed, when it did. */
  failure: SeatFailure | null;
}

interface Snapshot {
  turns: SeatTurn[];
  status: string;
  reward: number | null;
  failure: SeatFailure | null;
  playing: boolean;
  waiting: ServerWait | null;
  awaiting: SeatAwaiting | null;
}

/** One episode as the server pushes it to a seat: turns keyed by index, whose move it is, a model server it waits for, the outcome. */
export function useEpisodeStream(
  episodeId: number,
  seat: Seat,
  initial: { turns: SeatTurn[]; status: string; reward: number | null },
): EpisodeStreamState {
  const [state, setState] = useState<EpisodeStreamState>({
    connected: false,
    playing: false,
    awaiting: null,
    waiting: null,
    failure: null,
    ...initial,
  });

  useEffect(() => {
    const source = new EventSource(`/api/episodes/${episodeId}/events?seat=${seat}`);
    const on = <T>(event: string, apply: (data: T, s: EpisodeStreamState) => Partial<EpisodeStreamState>) =>
      source.addEventListener(event, (e) => {
        const data = JSON.parse((e as MessageEvent<string>).data) as T;
        setState((s) => ({ ...s, ...apply(data, s) }));
      });
    on<Snapshot>("snapshot", (snap) => ({ connected: true, ...snap }));
    on<SeatTurn>("turn", (turn, s) => ({
      turns: [...s.turns.filter((t) => t.index !== turn.index), turn].sort((a, b) => a.index - b.index),
      // A turn answers whatever was awaited; one from the other side shows its server answered.
      awaiting: null,
      waiting: turn.role === seat ? s.waiting : null,
    }));
    on<SeatAwaiting>("awaiting", (awaiting) => ({ awaiting }));
    on<ServerWait | null>("waiting", (waiting) => ({ waiting }));
    on<{ status: string; reward: number | null; failure: SeatFailure | null }>("status", (e, s) => ({
      status: e.status,
      reward: e.reward,
      failure: e.failure,
      awaiting: null,
      waiting: e.status === "done" || e.status === "failed" ? null : s.waiting,
    }));
    on<{ playing: boolean }>("playing", (e) => ({ playing: e.playing, awaiting: null, waiting: null }));
    source.onerror = () => setState((s) => ({ ...s, connected: false }));
    return () => source.close();
  }, [episodeId, seat]);

  return state;
}
