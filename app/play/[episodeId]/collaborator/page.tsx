import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { getPrisma } from "@/lib/db";
import { simulatorSeatView } from "@/lib/play/seat-views";
import { CollaboratorSeat } from "@/components/play/CollaboratorSeat";
import { BenchmarkBadge } from "@/components/BenchmarkBadge";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Playing the collaborator" };

export default async function CollaboratorSeatPage({ params }: { params: Promise<{ episodeId: string }> }) {
  const view = await simulatorSeatView(await getPrisma(), Number.parseInt((await params).episodeId, 10));
  if (!view) notFound();
  return (
    <>
      <header className="mb-4 flex flex-wrap items-center gap-3">
        <Link href="/play" className="text-sm text-teal-700 hover:underline">
          ← play
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight text-stone-900">You are the collaborator</h1>
        <BenchmarkBadge benchmark={view.benchmark} />
        <span className="text-sm text-stone-500">episode #{view.episodeId}</span>
        {view.personOpposite ? (
          <span className="text-sm text-stone-600">
            The agent is a person: send them <Link className="font-mono text-teal-700 underline" href={`/play/${view.episodeId}/agent`} data-testid="agent-seat-link">/play/{view.episodeId}/agent</Link>
          </span>
        ) : null}
      </header>
      {view.personSeat ? (
        <CollaboratorSeat view={view} />
      ) : (
        <p className="rounded-lg border border-stone-200 bg-white p-4 text-sm">A model server plays the collaborator in this episode; you can watch it on its episode page.</p>
      )}
    </>
  );
}
