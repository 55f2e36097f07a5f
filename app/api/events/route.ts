import { getEventBus, type RunEvent, type RunState } from "@/lib/events";
import { eventStream } from "@/lib/http/event-stream";

export const dynamic = "force-dynamic";

/** Studio-wide events for pages that list runs: a run, wherever it plays, started, ended or stopped. */
export async function GET(request: Request) {
  const bus = getEventBus();
  return eventStream(request, (send) => {
    const seen = new Map<number, RunState>();
    return bus.subscribe((event: RunEvent) => {
      if (event.type !== "progress") return;
      // Only changes of state: progress ticks would make every open leaderboard re-render.
      if (seen.get(event.runId) === event.state) return;
      seen.set(event.runId, event.state);
      send("run", { runId: event.runId, state: event.state });
    });
  });
}
