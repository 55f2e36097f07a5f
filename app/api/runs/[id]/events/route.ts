import { eventStream } from "@/lib/http/event-stream";
import { getRunManager } from "@/lib/runs/active";
import type { ManagerEvents, RunProgress } from "@/lib/runs/manager";

export const dynamic = "force-dynamic";

/**
 * Server-sent events for one run: its progress and each finished episode, pushed by the run
 * manager as they happen (no polling). Progress is sent at most every 250 ms.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const runId = Number.parseInt((await params).id, 10);
  const manager = getRunManager();
  return eventStream(request, (send) => {
    let pending: RunProgress | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const onProgress = (progress: RunProgress) => {
      if (progress.runId !== runId) return;
      pending = progress;
      if (progress.state !== "running") {
        if (timer) clearTimeout(timer);
        timer = null;
        send("progress", progress);
        return;
      }
      timer ??= setTimeout(() => {
        timer = null;
        if (pending) send("progress", pending);
      }, 250);
    };
    const onEpisode = (episode: ManagerEvents["episode"][0]) => {
      if (episode.runId === runId) send("episode", episode);
    };
    manager.events.on("progress", onProgress);
    manager.events.on("episode", onEpisode);
    send("progress", manager.progress(runId) ?? { runId, state: "idle" });
    return () => {
      manager.events.off("progress", onProgress);
      manager.events.off("episode", onEpisode);
      if (timer) clearTimeout(timer);
    };
  });
}
