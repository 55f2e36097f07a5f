import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { currentViewer } from "@/app/_lib/viewer";
import { holdsSeat } from "@/lib/access/renders";
import { seesHidden } from "@/lib/access/viewer";
import { seatLink } from "@/lib/access/users";
import { simulatorSeatView } from "@/lib/play/seat-views";
import { servedFolder } from "@/lib/gpu/node/served-weights";
import { CollaboratorSeat } from "@/components/play/CollaboratorSeat";
import { SeatPage } from "@/components/play/SeatPage";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Playing the collaborator" };

export default async function CollaboratorSeatPage({ params }: { params: Promise<{ episodeId: string }> }) {
  const store = await getStore();
  const episodeId = Number.parseInt((await params).episodeId, 10);
  // The collaborator's seat shows the hidden information: this seat's link, researchers and admins only.
  const viewer = await currentViewer();
  if (!seesHidden(viewer) && !holdsSeat(viewer, episodeId, "simulator")) notFound();
  const view = await simulatorSeatView(store, episodeId);
  if (!view) notFound();
  // A fresh key for the agent's seat: it opens that seat only, for someone without an account.
  const agentLink = view.personOpposite ? await seatLink(store, view.episodeId, "agent") : null;
  const invite = agentLink ? (
    <span className="text-sm text-stone-600">
      The agent is a person: send them{" "}
      {/* Not prefetched: the key is for the other person, and a prefetch would swap it for a cookie here. */}
      <Link className="font-mono text-teal-700 underline" href={agentLink} prefetch={false} data-testid="agent-seat-link">
        the agent seat&apos;s link
      </Link>
    </span>
  ) : null;
  return (
    <SeatPage title="You are the collaborator" benchmark={view.benchmark} episodeId={view.episodeId} personSeat={view.personSeat} extra={invite}>
      <CollaboratorSeat view={view} clip={view.benchmark === "frontend" ? (servedFolder("clip")?.split(/[\\/]/).pop() ?? null) : null} />
    </SeatPage>
  );
}
