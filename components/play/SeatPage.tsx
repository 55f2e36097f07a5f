import Link from "next/link";
import type { ReactNode } from "react";
import { BenchmarkBadge } from "@/components/BenchmarkBadge";
import type { Benchmark } from "@/lib/benchmarks";

/** The frame of a seat's page: who you are in which episode, or why a person cannot sit here. */
export function SeatPage({
  title,
  benchmark,
  episodeId,
  personSeat,
  extra,
  children,
}: {
  title: string;
  benchmark: Benchmark;
  episodeId: number;
  personSeat: boolean;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <header className="mb-4 flex flex-wrap items-center gap-3">
        <Link href="/play" className="text-sm text-teal-700 hover:underline">
          ← play
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight text-stone-900">{title}</h1>
        <BenchmarkBadge benchmark={benchmark} />
        <span className="text-sm text-stone-500">episode #{episodeId}</span>
        {extra}
      </header>
      {personSeat ? (
        children
      ) : (
        <p className="rounded-lg border border-stone-200 bg-white p-4 text-sm">
          A model (a model server, or one generating in the collaborator&apos;s tab) plays this seat in this episode;
          you can watch it on its{" "}
          <Link className="text-teal-700 underline" href={`/episodes/${episodeId}`}>
            episode page
          </Link>
          .
        </p>
      )}
    </>
  );
}
