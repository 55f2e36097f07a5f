import Link from "next/link";
import { notFound } from "next/navigation";
import { getStore } from "@/lib/store";
import { BenchmarkBadge } from "@/components/BenchmarkBadge";
import { currentViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";
import { RunSpec } from "@/components/RunSpec";
import { RunView } from "@/components/runs/RunView";
import { RunTimes } from "@/components/runs/RunTimes";
import { RunFailures } from "@/components/runs/RunFailures";
import { episodesQuery, readRunSnapshot } from "./snapshot";

export const dynamic = "force-dynamic";

/**
 * A run's page: the first snapshot of the run (lib/runs/snapshot.ts), read here, then whole new ones
 * from /api/runs/ID/events as the run moves; "What was run" comes from the run's stored config.
 */
export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const id = Number.parseInt((await params).id, 10);
  const query = await searchParams;
  const manages = seesHidden(await currentViewer());
  const snapshot = await readRunSnapshot(id, episodesQuery({ get: (name) => query[name] }), manages);
  if (!snapshot) notFound();
  // The configuration does not change while the run plays: kept per revision like the figures.
  const row = await (await (await getStore()).runs.kept(id)).row();
  return (
    <>
      <Link href="/runs" className="text-sm text-teal-700 hover:underline">
        ← runs
      </Link>
      <RunView
        initial={snapshot}
        manages={manages}
        badge={<BenchmarkBadge benchmark={snapshot.run.benchmark} />}
        spec={<RunSpec runId={id} config={row?.config} prompts={manages} times={<RunTimes />} />}
        extra={<RunFailures {...await (await getStore()).runs.failureGroups(id)} />}
      />
    </>
  );
}
