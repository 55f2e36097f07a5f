import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { simulatorSeatView } from "@/lib/play/seat-views";
import { CollaboratorSeat } from "@/components/play/CollaboratorSeat";
import { SeatPage } from "@/components/play/SeatPage";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Playing the collaborator" };

export default async function CollaboratorSeatPage({ params }: { params: Promise<{ episodeId: string }> }) {
  const view = await simulatorSeatView(await getStore(), Number.parseInt((await params).episodeId, 10));
  if (!view) notFound();
  const invite = view.personOpposite ? (
    <span className="text-sm text-stone-600">
      The agent is a person: send them{" "}
      <Link className="font-mono text-teal-700 underline" href={`/play/${view.episodeId}/agent`} data-testid="agent-seat-link">
        /play/{view.episodeId}/agent
      </Link>
    </span>
  ) : null;
  return (
    <SeatPage title="You are the collaborator" benchmark={view.benchmark} episodeId={view.episodeId} personSeat={view.personSeat} extra={invite}>
      <CollaboratorSeat view={view} />
    </SeatPage>
  );
}
