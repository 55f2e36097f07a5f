import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { getPrisma } from "@/lib/db";
import { agentSeatView } from "@/lib/play/seat-views";
import { AgentSeat } from "@/components/play/AgentSeat";
import { BenchmarkBadge } from "@/components/BenchmarkBadge";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Playing the agent" };

// This page and everything it loads carry only what an agent may know: no ground truth, no
// tests, no target page (e2e/play.spec.ts checks every response body).
export default async function AgentSeatPage({ params }: { params: Promise<{ episodeId: string }> }) {
  const view = await agentSeatView(await getPrisma(), Number.parseInt((await params).episodeId, 10));
  if (!view) notFound();
  return (
    <>
      <header className="mb-4 flex flex-wrap items-center gap-3">
        <Link href="/play" className="text-sm text-teal-700 hover:underline">
          ← play
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight text-stone-900">You are the agent</h1>
        <BenchmarkBadge benchmark={view.benchmark} />
        <span className="text-sm text-stone-500">episode #{view.episodeId}</span>
      </header>
      {view.personSeat ? (
        <AgentSeat view={view} />
      ) : (
        <p className="rounded-lg border border-stone-200 bg-white p-4 text-sm">A model server plays the agent in this episode; you can watch it on its episode page.</p>
      )}
    </>
  );
}
