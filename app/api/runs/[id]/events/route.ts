import { getEventBus, type RunEvent } from "@/lib/events";
import { eventStream, type Send } from "@/lib/http/event-stream";
import { seesHidden } from "@/lib/access/viewer";
import type { EpisodesQuery } from "@/lib/runs/snapshot";
import { requestViewer } from "@/app/_lib/viewer";
import { episodesQuery, readRunSnapshot } from "@/app/runs/[id]/snapshot";

export const dynamic = "force-dynamic";

/** At most one snapshot this often, however fast turns are stored; the last word always goes out. */
const SNAPSHOT_MS = 400;
/** While the run plays, a snapshot at least this often: pace, ETA and workers' heartbeats move with the clock. */
const TICK_MS = 3000;

/**
 * Sends `snapshot` events, each a whole snapshot of one run, read again after whatever the event bus
 * says happened to it (from whichever process plays it), and on a clock while it plays; the page shows
 * the latest whole. `pipeline` events pass a SWEET-RL step's own progress on as it comes.
 */
function snapshots(send: Send, runId: number, query: EpisodesQuery, manages: boolean) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let reading = false;
  let again = false;
  let closed = false;
  let live = false;
  const read = async () => {
    timer = null;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      const snapshot = await readRunSnapshot(runId, query, manages);
      if (!closed && snapshot) {
        send("snapshot", snapshot);
        live = snapshot.state === "running" || snapshot.state === "stopping" || snapshot.workers !== null;
      }
    } catch (error) {
      if (!closed) send("snapshot-error", { error: (error as Error).message });
    } finally {
      reading = false;
      if (again && !closed) {
        again = false;
        soon();
      }
    }
  };
  const soon = (ms = SNAPSHOT_MS) => {
    timer ??= setTimeout(() => void read(), ms);
  };
  const tick = setInterval(() => {
    if (live) soon(0);
  }, TICK_MS);
  return {
    now: () => void read(),
    soon: () => soon(),
    close() {
      closed = true;
      clearInterval(tick);
      if (timer) clearTimeout(timer);
    },
  };
}

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const runId = Number.parseInt((await params).id, 10);
  const query = episodesQuery(new URL(request.url).searchParams);
  const manages = seesHidden(requestViewer(request));
  const bus = getEventBus();
  return eventStream(request, (send) => {
    const reader = snapshots(send, runId, query, manages);
    const unsubscribe = bus.subscribe((event: RunEvent) => {
      if (event.runId !== runId) return;
      if (event.type === "pipeline" && manages) {
        const { type: _type, runId: _run, ...step } = event;
        send("pipeline", step);
      }
      reader.soon();
    });
    reader.now();
    return () => {
      unsubscribe();
      reader.close();
    };
  });
}
