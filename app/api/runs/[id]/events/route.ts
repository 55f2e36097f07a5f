import { getEventBus, type RunEvent, type RunProgress } from "@/lib/events";
import { eventStream } from "@/lib/http/event-stream";
import { getRunManager } from "@/lib/runs/active";
import { getPipelineJobs } from "@/lib/sweet/jobs";

export const dynamic = "force-dynamic";

/**
 * Server-sent events for one run: its progress and each finished episode, as the event bus brings
 * them from whichever process plays the run (no polling). Progress is sent at most every 250 ms.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const runId = Number.parseInt((await params).id, 10);
  const manager = getRunManager();
  const bus = getEventBus();
  return eventStream(request, (send) => {
    let pending: RunProgress | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const progressOf = ({ type: _type, ...progress }: RunProgress) => progress;
    const unsubscribe = bus.subscribe((event: RunEvent) => {
      if (event.runId !== runId) return;
      if (event.type === "episode") {
        send("episode", event);
        return;
      }
      if (event.type === "pipeline") {
        send("pipeline", event);
        return;
      }
      if (event.type !== "progress") return;
      pending = event;
      if (event.state !== "running") {
        if (timer) clearTimeout(timer);
        timer = null;
        send("progress", progressOf(event));
        return;
      }
      timer ??= setTimeout(() => {
        timer = null;
        if (pending) send("progress", progressOf(pending));
      }, 250);
    });
    const last = manager.progress(runId);
    send("progress", last ? progressOf(last) : { runId, state: "idle" });
    const step = getPipelineJobs().status(runId);
    if (step) send("pipeline", step);
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  });
}
