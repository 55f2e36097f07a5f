import { eventStream } from "@/lib/http/event-stream";
import { getRunManager } from "@/lib/runs/active";
import type { RunProgress } from "@/lib/runs/manager";

export const dynamic = "force-dynamic";

/** Studio-wide events for pages that list runs: a run started, ended or stopped. */
export async function GET(request: Request) {
  const manager = getRunManager();
  return eventStream(request, (send) => {
    const seen = new Map<number, RunProgress["state"]>();
    const onProgress = (p: RunProgress) => {
      // Only changes of state: progress ticks would make every open leaderboard re-render.
      if (seen.get(p.runId) === p.state) return;
      seen.set(p.runId, p.state);
      send("run", { runId: p.runId, state: p.state });
    };
    manager.events.on("progress", onProgress);
    return () => manager.events.off("progress", onProgress);
  });
}
