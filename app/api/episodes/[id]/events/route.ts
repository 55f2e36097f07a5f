import { getEventBus, type RunEvent } from "@/lib/events";
import { eventStream } from "@/lib/http/event-stream";
import { getSeats } from "@/lib/play/seats";
import { awaitingFor, failureFor, parseSeat, turnFor } from "@/lib/play/seat-turns";
import { getRunManager } from "@/lib/runs/active";
import { getStore } from "@/lib/store";
import { requestViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";

export const dynamic = "force-dynamic";

/**
 * One episode, live: a snapshot of its turns, then each new turn, whose move is awaited, a model
 * server it waits for and the outcome, as the event bus reports them from whichever process plays
 * it. Events carry ids; the turn itself is read from the database. `?seat=agent` gets the agent's
 * view only (no hidden information).
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const episodeId = Number.parseInt((await params).id, 10);
  const viewer = requestViewer(request);
  const asked = parseSeat(new URL(request.url).searchParams.get("seat"));
  // Only those who may see hidden information get the reviewer's view (prompts hold it); others get the seat they hold.
  const seat = asked === "viewer" && !seesHidden(viewer) ? "agent" : asked;
  // Even the agent's view is for this episode's seats (and those who see everything), not any seat link that got past the gate.
  if (!seesHidden(viewer) && !(viewer.kind === "seats" && viewer.seats.some((s) => s.episodeId === episodeId))) {
    return Response.json({ error: "this episode's turns are for its seats, researchers and admins" }, { status: 403 });
  }
  if (
    seat === "simulator" &&
    !seesHidden(viewer) &&
    !(viewer.kind === "seats" && viewer.seats.some((s) => s.episodeId === episodeId && s.seat === "simulator"))
  ) {
    return Response.json(
      { error: "the collaborator's view is for that seat, researchers and admins" },
      { status: 403 },
    );
  }
  const store = await getStore();
  const episode = await store.episodes.ref(episodeId);
  if (!episode) return Response.json({ error: `no episode ${episodeId}` }, { status: 404 });
  const bus = getEventBus();
  const seats = getSeats();
  const manager = getRunManager();
  // Imported episodes belong to no run and never play.
  const runId = episode.runId ?? -1;
  const playing = async () => {
    const progress = manager.progress(runId);
    if (progress) return progress.state === "running" || progress.state === "stopping";
    return (await store.runs.find(runId))?.status === "running";
  };

  return eventStream(request, async (send) => {
    // Turns are read in the order they were announced, so a view never shows turn 5 before turn 4;
    // all of it after the snapshot, which could otherwise replace a newer turn or wait with its own.
    let snapshotSent = () => {};
    let reads = new Promise<void>((resolve) => (snapshotSent = resolve));
    const onEvent = (event: RunEvent) => {
      if (event.runId !== runId) return;
      if (event.type === "turn" && event.episodeId === episodeId) {
        reads = reads.then(async () => {
          const turn = await store.episodes.turn(episodeId, event.index).catch(() => null);
          if (turn) send("turn", turnFor(seat, turn));
        });
      } else if (event.type === "awaiting" && event.episodeId === episodeId) {
        const move = seats.awaiting(runId);
        if (move && move.episodeId === episodeId) reads = reads.then(() => send("awaiting", awaitingFor(seat, move)));
      } else if (event.type === "episode" && event.episodeId === episodeId) {
        // The score's details list the tests; a seat learns only the reward, or why it failed.
        reads = reads.then(async () => {
          const failure =
            event.status === "failed"
              ? failureFor(seat, await store.episodes.failure(episodeId).catch(() => null))
              : null;
          send("status", { status: event.status, reward: event.reward ?? null, failure });
        });
      } else if (event.type === "waiting" && event.episodeIds.includes(episodeId)) {
        // Which server and why, as a failure would name it to this seat.
        reads = reads.then(() => send("waiting", event.wait));
      } else if (event.type === "progress" && event.state !== "running" && event.state !== "stopping") {
        reads = reads.then(() => send("playing", { playing: false, state: event.state }));
      }
    };
    // Subscribe before reading the snapshot so no turn falls between the two; the client keys turns by index.
    const unsubscribe = bus.subscribe(onEvent);
    const [turns, current, isPlaying, failure] = await Promise.all([
      store.episodes.turns(episodeId),
      store.episodes.ref(episodeId),
      playing(),
      store.episodes.failure(episodeId),
    ]);
    const awaited = seats.awaiting(runId);
    send("snapshot", {
      turns: turns.map((t) => turnFor(seat, t)),
      status: current?.status ?? episode.status,
      reward: current?.reward ?? null,
      failure: failureFor(seat, failure),
      playing: isPlaying,
      waiting: current?.waitingFor ?? null,
      awaiting: awaited && awaited.episodeId === episodeId ? awaitingFor(seat, awaited) : null,
    });
    snapshotSent();
    return unsubscribe;
  });
}
