import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { currentViewer } from "@/app/_lib/viewer";
import { holdsSeat } from "@/lib/access/renders";
import { seesHidden } from "@/lib/access/viewer";
import { agentSeatView } from "@/lib/play/seat-views";
import { AgentSeat } from "@/components/play/AgentSeat";
import { SeatPage } from "@/components/play/SeatPage";
import { liveScorers } from "@/lib/gpu/live-service";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Playing the agent" };

// This page and everything it loads carry only what an agent may know: no ground truth, no
// tests, no target page (e2e/play.spec.ts checks every response body).
export default async function AgentSeatPage({ params }: { params: Promise<{ episodeId: string }> }) {
  const episodeId = Number.parseInt((await params).episodeId, 10);
  const viewer = await currentViewer();
  if (!seesHidden(viewer) && !holdsSeat(viewer, episodeId, "agent")) notFound();
  const store = await getStore();
  const view = await agentSeatView(store, episodeId);
  if (!view) notFound();
  // Coach mode (practice play): the studio scores each sent turn; this tab gets the numbers only.
  // Served weights, else model servers (given to `colbench serve`, or named by the run's lineage).
  const scorers = await liveScorers(store, episodeId);
  const coach =
    scorers && (await store.sweet.coachMode(episodeId))
      ? { where: "studio" as const, served: scorers.served, initial: await store.sweet.liveAdvantages(episodeId) }
      : undefined;
  return (
    <SeatPage
      title="You are the agent"
      benchmark={view.benchmark}
      episodeId={view.episodeId}
      personSeat={view.personSeat}
    >
      <AgentSeat view={view} coach={coach} />
    </SeatPage>
  );
}
