import { getPrisma } from "@/lib/db";
import { eventStream } from "@/lib/http/event-stream";
import { awaitingFor, parseSeat, turnFor } from "@/lib/play/views";
import { getRunManager } from "@/lib/runs/active";
import type { AwaitedMove, ManagerEvents } from "@/lib/runs/manager";
import { loadTurns } from "@/lib/store/episodes";

export const dynamic = "force-dynamic";

/**
 * One episode, live: a snapshot of its turns, then each new turn, whose move is awaited and the
 * outcome, pushed by the run manager. `?seat=agent` gets the agent's view only (no hidden information).
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const episodeId = Number.parseInt((await params).id, 10);
  const seat = parseSeat(new URL(request.url).searchParams.get("seat"));
  const prisma = await getPrisma();
  const episode = Number.isSafeInteger(episodeId)
    ? await prisma.episode.findUnique({ where: { id: episodeId }, select: { id: true, runId: true, status: true, reward: true } })
    : null;
  if (!episode) return Response.json({ error: `no episode ${episodeId}` }, { status: 404 });
  const manager = getRunManager();
  // Imported episodes belong to no run and never play.
  const runId = episode.runId ?? -1;

  return eventStream(request, async (send) => {
    const onTurn = (e: ManagerEvents["turn"][0]) => {
      if (e.episodeId === episodeId) send("turn", turnFor(seat, e.turn));
    };
    const onAwaiting = (move: AwaitedMove) => {
      if (move.episodeId === episodeId) send("awaiting", awaitingFor(seat, move));
    };
    const onEpisode = (e: ManagerEvents["episode"][0]) => {
      if (e.episodeId !== episodeId) return;
      // The score's details list the tests; a seat learns only the reward.
      send("status", { status: e.status, reward: e.reward ?? null, error: seat === "agent" ? undefined : e.error });
    };
    const onProgress = (p: ManagerEvents["progress"][0]) => {
      if (p.runId === runId && p.state !== "running" && p.state !== "stopping") send("playing", { playing: false, state: p.state });
    };
    // Subscribe before reading the snapshot so no turn falls between the two; the client keys turns by index.
    manager.events.on("turn", onTurn);
    manager.events.on("awaiting", onAwaiting);
    manager.events.on("episode", onEpisode);
    manager.events.on("progress", onProgress);
    const turns = await loadTurns(prisma, episodeId);
    const current = await prisma.episode.findUnique({ where: { id: episodeId }, select: { status: true, reward: true } });
    const awaited = manager.awaiting(runId);
    send("snapshot", {
      turns: turns.map((t) => turnFor(seat, t)),
      status: current?.status ?? episode.status,
      reward: current?.reward ?? null,
      playing: manager.isActive(runId),
      awaiting: awaited && awaited.episodeId === episodeId ? awaitingFor(seat, awaited) : null,
    });
    return () => {
      manager.events.off("turn", onTurn);
      manager.events.off("awaiting", onAwaiting);
      manager.events.off("episode", onEpisode);
      manager.events.off("progress", onProgress);
    };
  });
}
