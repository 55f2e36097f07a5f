import Link from "next/link";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { PageHeader } from "@/components/PageHeader";
import { EmptyState } from "@/components/EmptyState";
import { BenchmarkBadge } from "@/components/BenchmarkBadge";
import { SortableTable } from "@/components/table/SortableTable";
import { lineStart } from "@/components/format";
import { IncludeSwitch, withQuery } from "@/components/IncludeSwitch";
import { LiveRefresh } from "@/components/live/LiveRefresh";
import { rewardSentence } from "@/lib/benchmarks/reward-sentence";
import { RevokeSeatLinks } from "@/components/play/RevokeSeatLinks";
import type { SessionRow } from "@/lib/store/play";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sessions" };

const SEAT: Record<SessionRow["seat"], string> = { agent: "agent", collaborator: "collaborator", both: "both seats" };

function outcome(s: SessionRow): string {
  const e = s.episode;
  if (!e) return "not started";
  if (e.status === "failed") return "failed";
  if (e.status !== "done" || e.reward === null) return `${e.status} (${e.turns} turns)`;
  return rewardSentence(s.benchmark, e.reward, s.scoredBy);
}

/** Episodes people played from Play: kept apart from benchmark runs and their rankings. */
export default async function SessionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const query = await searchParams;
  const includeArchived = query.archived === "1";
  const sessions = await (await getStore()).runs.sessions({ includeArchived });
  return (
    <>
      <LiveRefresh />
      <div className="flex items-start justify-between">
        <PageHeader title="Sessions">
          Episodes played by people from Play, one task each. They are not benchmark runs: the Leaderboard and Compare
          leave them out unless asked.
        </PageHeader>
        <Link
          href="/play"
          className="rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800"
        >
          Play
        </Link>
      </div>
      <div className="mb-3">
        <IncludeSwitch
          label="Show archived"
          on={includeArchived}
          href={withQuery("/sessions", query, { archived: !includeArchived })}
        />
      </div>
      {sessions.length === 0 ? (
        <EmptyState title={includeArchived ? "No sessions" : "No sessions yet"}>
          Sessions appear here when someone plays a seat from{" "}
          <Link href="/play" className="text-teal-700 underline">
            Play
          </Link>
          .
        </EmptyState>
      ) : (
        <SortableTable
          testId="sessions-table"
          name="sessions"
          caption={`${sessions.length} session${sessions.length === 1 ? "" : "s"}`}
          columns={[
            { id: "when", header: "When", className: "whitespace-nowrap text-stone-600" },
            { id: "benchmark", header: "Benchmark" },
            { id: "seat", header: "Seat" },
            { id: "opponent", header: "Opponent", className: "font-mono text-xs text-stone-600" },
            { id: "task", header: "Task", className: "max-w-sm truncate text-stone-700" },
            { id: "outcome", header: "Outcome" },
            { id: "links", header: "", unsortable: true },
          ]}
          rows={sessions.map((s) => ({
            key: s.runId,
            cells: {
              when: { text: s.createdAt.toISOString().slice(0, 16).replace("T", " ") },
              benchmark: { text: s.benchmark },
              seat: { text: SEAT[s.seat] },
              opponent: { text: s.opponent },
              task: {
                text: s.episode ? `#${s.episode.taskId} ${s.episode.problemDescription}` : "–",
                sort: s.episode?.taskId ?? null,
              },
              outcome: { text: outcome(s), sort: s.episode?.reward ?? null },
              links: { text: "" },
            },
            titles: s.episode ? { task: s.episode.problemDescription } : undefined,
            nodes: {
              benchmark: <BenchmarkBadge benchmark={s.benchmark} />,
              task: s.episode ? (
                <>
                  <span className="font-mono text-xs text-stone-400">#{s.episode.taskId}</span>{" "}
                  {lineStart(s.episode.problemDescription)}
                </>
              ) : (
                "–"
              ),
              outcome: s.episode ? (
                <Link href={`/episodes/${s.episode.id}`} className="text-teal-800 hover:underline">
                  {outcome(s)}
                </Link>
              ) : (
                outcome(s)
              ),
              links: (
                <span className="flex gap-3">
                  <Link href={`/runs/${s.runId}`} className="text-xs text-stone-500 hover:underline">
                    {s.archivedAt ? "archived · " : ""}details
                  </Link>
                  {s.episode ? <RevokeSeatLinks episodeId={s.episode.id} /> : null}
                </span>
              ),
            },
          }))}
        />
      )}
    </>
  );
}
