"use client";

import type { ReactNode } from "react";
import type { RunSnapshot } from "@/lib/runs/snapshot";
import { PipelinePanel } from "@/components/PipelinePanel";
import { RunCharts } from "@/components/RunCharts";
import { RunHeader, RunBanners } from "./RunHeader";
import { RunStatusLine } from "./RunStatusLine";
import { RunWorkers } from "./RunWorkers";
import { RunCards } from "./RunCards";
import { RunEpisodes } from "./RunEpisodes";
import { RunSnapshotProvider, useRunSnapshot } from "./snapshot-context";

// The run page: every part reads the one snapshot (lib/runs/snapshot.ts) its stream replaces as a
// whole. Slots take what the server renders once (the benchmark's badge, "What was run" with the live
// times inside it, and parts other features add, such as failures by reason).

function Training() {
  const s = useRunSnapshot();
  return s.pipeline ? <PipelinePanel runId={s.run.id} view={s.pipeline} /> : null;
}

function Charts() {
  const s = useRunSnapshot();
  const d = s.dashboard;
  if (d.done === 0 && !d.pace) return null;
  return (
    <RunCharts
      dashboard={{ ...d, pace: d.pace ? { ...d.pace, eta: d.pace.eta === null ? null : new Date(d.pace.eta) } : null }}
      benchmark={s.run.benchmark}
    />
  );
}

export function RunView({
  initial,
  manages,
  badge,
  spec,
  extra,
}: {
  initial: RunSnapshot;
  manages: boolean;
  badge: ReactNode;
  spec: ReactNode;
  /** Sections shown after the charts, above the episodes (they may read useRunSnapshot()). */
  extra?: ReactNode;
}) {
  return (
    <RunSnapshotProvider initial={initial}>
      <RunHeader badge={badge} manages={manages} />
      <RunBanners />
      <RunStatusLine />
      <RunWorkers />
      <RunCards />
      {spec}
      <Training />
      <Charts />
      {extra}
      <RunEpisodes />
    </RunSnapshotProvider>
  );
}
