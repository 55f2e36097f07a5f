import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { currentViewer } from "@/app/_lib/viewer";
import { holdsSeat } from "@/lib/access/renders";
import { seesHidden } from "@/lib/access/viewer";
import { simulatorSeatView } from "@/lib/play/seat-views";
import { servedFolder, servedModels } from "@/lib/gpu/node/served-weights";
import { liveScorers } from "@/lib/gpu/live-service";
import { CollaboratorSeat } from "@/components/play/CollaboratorSeat";
import { SeatPage } from "@/components/play/SeatPage";
import { benchmarkViews } from "@/components/benchmarks";

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
  // Researchers score in this tab (they may be sent the critic's prompt and the weights); a seat link's holder gets numbers the studio computes.
  // Model servers (no weights served) are asked by the studio's process, whoever views.
  const scorers = await liveScorers(store, episodeId);
  const advantages = {
    where: seesHidden(viewer) && scorers?.by === "weights" ? ("tab" as const) : ("studio" as const),
    served: scorers?.served ?? servedModels(),
    initial: await store.sweet.liveAdvantages(episodeId),
  };
  // No key for the agent's seat here, ever: whoever sees this page sees the hidden information, and
  // a key on it would let them play the agent too. Researchers hand seats out from the episode's page.
  const invite =
    view.personOpposite && seesHidden(viewer) ? (
      <span className="text-sm text-stone-600">
        The agent is a person: hand them a link from{" "}
        <Link
          className="text-teal-700 underline"
          href={`/episodes/${view.episodeId}#seat-links`}
          data-testid="seat-links-link"
        >
          the episode&apos;s seat links
        </Link>
      </span>
    ) : null;
  return (
    <SeatPage
      title="You are the collaborator"
      benchmark={view.benchmark}
      episodeId={view.episodeId}
      personSeat={view.personSeat}
      extra={invite}
    >
      <CollaboratorSeat
        view={view}
        clip={
          benchmarkViews[view.benchmark].similarityInBrowser
            ? (servedFolder("clip")?.split(/[\\/]/).pop() ?? null)
            : null
        }
        advantages={advantages}
      />
    </SeatPage>
  );
}
