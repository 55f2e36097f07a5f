"use client";

import type { Pace } from "@/lib/runs/pace";
import { DataTable } from "@/components/DataTable";
import { useRunSnapshot } from "./snapshot-context";

const ago = (ms: number) =>
  ms < 1500 ? "just now" : ms < 90_000 ? `${Math.round(ms / 1000)} s ago` : `${Math.round(ms / 60_000)} min ago`;

function duration(ms: number | null): string {
  if (ms === null) return "—";
  const s = Math.round(ms / 1000);
  if (s < 90) return `${s} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

function etaText(pace: Pace): string {
  if (pace.state === "starting") return "starting: no episode ended yet";
  // No figure: when it ends depends on when the server answers again.
  if (pace.state === "waiting") return "waiting for the model server";
  return duration(pace.etaMs);
}

/**
 * The run queue as this run sees it: workers on any machine, what waits, the pace and an ETA, from
 * the snapshot (its stream sends a new one every few seconds while the run plays: heartbeats move).
 */
export function RunWorkers() {
  const view = useRunSnapshot().workers;
  if (!view) return null;
  return (
    <section className="mb-6 rounded-lg border border-stone-200 bg-white p-4" data-testid="run-workers">
      <h2 className="mb-3 text-sm font-semibold text-stone-700">Workers</h2>
      <dl className="mb-3 grid grid-cols-2 gap-4 text-sm sm:grid-cols-5">
        {[
          ["Queued jobs", String(view.queued)],
          ["Episodes left", String(view.remaining)],
          // Playing and waiting are counted from the same rows at the same moment, so they never disagree.
          [
            "In play",
            view.pace.waiting
              ? `${view.pace.playing ?? 0} (${view.pace.waiting} waiting)`
              : String(view.pace.playing ?? "—"),
          ],
          [
            "Throughput",
            view.pace.perMinute === null
              ? view.pace.state === "starting"
                ? "starting"
                : "—"
              : `${view.pace.perMinute.toFixed(1)} episodes/min`,
          ],
          ["ETA", view.remaining ? etaText(view.pace) : "done"],
        ].map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs text-stone-500">{label}</dt>
            <dd
              className="font-semibold tabular-nums text-stone-900"
              data-testid={`queue-${(label ?? "").toLowerCase().replace(/ /g, "-")}`}
            >
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {view.workers.length ? (
        <DataTable
          testId="workers-table"
          dense
          rows={view.workers}
          rowKey={(w) => w.id}
          columns={[
            { header: "Host", className: "font-mono text-xs", title: (w) => w.id, cell: (w) => `${w.host}:${w.pid}` },
            { header: "Kinds", cell: (w) => w.kinds.join(", ") },
            // A stalled worker's last word on what it holds is stale: not shown as if it were true.
            {
              header: "In flight (this run)",
              numeric: true,
              cell: (w) => (w.stalled ? `?/${w.concurrency}` : `${w.inFlight}/${w.concurrency} (${w.forRun})`),
            },
            { header: "Jobs done", numeric: true, cell: (w) => w.finished },
            {
              header: "Last heartbeat",
              className: "text-stone-600",
              cell: (w) =>
                w.stalled ? (
                  <span className="font-medium text-amber-800" data-testid="worker-stalled">
                    stalled: {ago(w.silentMs)}
                  </span>
                ) : (
                  ago(w.silentMs)
                ),
            },
          ]}
        />
      ) : (
        <p className="text-sm text-amber-800">
          No worker is running: start one with <code>DATABASE_URL=… colbench worker</code> on any machine.
        </p>
      )}
    </section>
  );
}
