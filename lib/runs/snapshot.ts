import type { Benchmark } from "../benchmarks";
import { runConfigSchema } from "../benchmarks/run-config";
import { describeWait } from "../colbench/failure";
import type { RunEvent } from "../events";
import type { Store } from "../store";
import type { EpisodeRow, EpisodeSort, RunKind, RunSummary, ScoreBand } from "../store/runs";
import type { RunSpan } from "../store/run-span";
import type { RunFigures } from "../store/run-figures";
import { isStalled } from "../store/workers";
import { loadPipelineView, type PipelineView } from "../sweet/pipeline-view";
import { runDashboard, type RunDashboard } from "./dashboard";
import { paceOf, type Pace } from "./pace";
import { queueView, type QueueView } from "./queue-view";
import { runActionsOf, runStateOf, type RunActions, type RunStateWord } from "./run-state";

// Everything the run page shows of a run, as one plain object read at one moment: the header's
// state, the cards, the live line and the actions offered, the charts with pace and ETA, the Workers
// panel, the training-data panel, the page of episodes and when it started and ended. The page renders
// the first one and its event stream sends whole new ones, so no part of the page can say something
// another part contradicts, and nothing stays as it was loaded. Times are milliseconds since the epoch,
// so the object travels as JSON unchanged.

export type EpisodeStatus = "pending" | "running" | "done" | "failed";
export type StepEvent = Omit<Extract<RunEvent, { type: "pipeline" }>, "type" | "runId">;

/** Which page of the episodes table, under which filters, in which order (the page's address says). */
export interface EpisodesQuery {
  page?: number;
  status?: EpisodeStatus;
  score?: ScoreBand;
  /** A column of EPISODE_SORTS, ordered by the store before the page is cut; by episode number when absent. */
  sort?: EpisodeSort;
  dir?: "asc" | "desc";
}

export interface RunSnapshot {
  /** When it was read; the client ticks Duration on from here. */
  at: number;
  revision: string | null;
  run: {
    id: number;
    name: string;
    benchmark: Benchmark;
    kind: RunKind;
    agent: string | null;
    createdAt: number;
    archivedAt: number | null;
    /** A researcher's words about the run ("" for viewers who are not researchers), and its tags (lib/store/run-notes.ts). */
    notes: string;
    tags: string[];
    /** The embedder's label beside every similarity (page answers), else null. */
    embedder: string | null;
  };
  state: RunStateWord;
  /** The player's own error, when it crashed in this studio. */
  error: string | null;
  /** `playing`: held by a player now; `toPlay`: not started, or interrupted and held by nobody. */
  counts: { total: number; done: number; failed: number; playing: number; toPlay: number };
  meanReward: number | null;
  successRate: number | null;
  /** Episodes held while a model server does not answer, in words, and when they give up. */
  waiting: { episodes: number; text: string; giveUpMinutes: number } | null;
  span: { startedAt: number | null; endedAt: number | null };
  dashboard: Omit<RunDashboard, "pace"> & { pace: (Pace & { eta: number | null }) | null };
  /** The run queue's workers; `stalled`: silent past two beats, so what it says it holds is not known. */
  workers:
    | (Omit<QueueView, "workers"> & {
        workers: Array<Omit<QueueView["workers"][number], "startedAt" | "beatAt"> & { stalled: boolean }>;
      })
    | null;
  /** Researchers only: SWEET-RL's steps on this run, and the latest step's news. */
  pipeline: (PipelineView & { last: StepEvent | null }) | null;
  episodes: { items: EpisodeRow[]; total: number; page: number; pages: number; query: EpisodesQuery };
  actions: RunActions & { archived: boolean };
}

/** What the snapshot is made from: each part as the store (or the process playing the run) gives it. */
export interface SnapshotParts {
  now: Date;
  revision: string | null;
  summary: RunSummary;
  config: unknown;
  figures: RunFigures;
  pace: Pace;
  span: RunSpan;
  queue: QueueView | null;
  pipeline: (PipelineView & { last: StepEvent | null }) | null;
  episodes: { items: EpisodeRow[]; total: number; page: number; pages: number };
  query: EpisodesQuery;
  here?: {
    active: boolean;
    last?: "running" | "stopping" | "finished" | "stopped" | "crashed" | "idle";
    error?: string;
  };
  /** Whether Stop reaches the player (it plays here, or on the run queue this studio can empty). */
  stoppable: boolean;
}

const ms = (d: Date | null) => (d ? d.getTime() : null);

function stateParts(p: SnapshotParts) {
  const s = p.summary;
  const counts = { total: s.total, done: s.done, failed: s.failed, playing: s.playing, toPlay: s.toPlay };
  const state = runStateOf({ ...counts, stored: s.status, here: p.here });
  return { counts, state, actions: { ...runActionsOf(state, counts, p.stoppable), archived: s.archivedAt !== null } };
}

function dashboardPart(p: SnapshotParts, live: boolean): RunSnapshot["dashboard"] {
  const prices = runConfigSchema.safeParse(p.config).data?.prices;
  const dashboard = runDashboard(p.figures, { prices, pace: live ? p.pace : null, now: p.now });
  return { ...dashboard, pace: dashboard.pace ? { ...dashboard.pace, eta: ms(dashboard.pace.eta) } : null };
}

function workersPart(queue: QueueView | null): RunSnapshot["workers"] {
  if (!queue) return null;
  return {
    ...queue,
    workers: queue.workers.map(({ startedAt: _s, beatAt: _b, ...w }) => ({ ...w, stalled: isStalled(w) })),
  };
}

function waitingPart(p: SnapshotParts): RunSnapshot["waiting"] {
  const w = p.summary.waiting;
  if (!w) return null;
  const giveUp = runConfigSchema.safeParse(p.config).data?.giveUpSeconds ?? 600;
  return { episodes: w.episodes, text: describeWait(w.wait, p.now.getTime()), giveUpMinutes: Math.round(giveUp / 60) };
}

/** The snapshot from its parts (pure: the same parts make the same snapshot). */
export function snapshotOf(p: SnapshotParts): RunSnapshot {
  const s = p.summary;
  const { counts, state, actions } = stateParts(p);
  const live = state === "running" || state === "stopping";
  return {
    at: p.now.getTime(),
    revision: p.revision,
    run: {
      id: s.id,
      name: s.name,
      benchmark: s.benchmark,
      kind: s.kind,
      agent: s.agent,
      createdAt: s.createdAt.getTime(),
      archivedAt: ms(s.archivedAt),
      notes: s.notes,
      tags: s.tags,
      embedder: s.embedder?.label ?? null,
    },
    state,
    error: state === "crashed" ? (p.here?.error ?? null) : null,
    counts,
    meanReward: s.meanReward,
    successRate: s.successRate,
    waiting: live ? waitingPart(p) : null,
    span: { startedAt: ms(p.span.startedAt), endedAt: ms(p.span.endedAt) },
    dashboard: dashboardPart(p, live),
    workers: workersPart(p.queue),
    pipeline: p.pipeline,
    episodes: { ...p.episodes, query: p.query },
    actions,
  };
}

export interface SnapshotOptions {
  query?: EpisodesQuery;
  /** Researchers see the training-data panel. */
  manages: boolean;
  here?: SnapshotParts["here"];
  /** The latest SWEET-RL step's news this process heard of. */
  pipelineLast?: StepEvent | null;
  /** Stop reaches a player of this run even when it does not play here (the run queue). */
  queueStops?: boolean;
  now?: Date;
}

/** Reads every part at the run's current revision (each counted once per revision: lib/store/run-memo.ts); null: no such run. */
export async function loadRunSnapshot(
  store: Store,
  runId: number,
  options: SnapshotOptions,
): Promise<RunSnapshot | null> {
  const kept = await store.runs.kept(runId);
  const summary = await kept.summary();
  if (!summary) return null;
  const now = options.now ?? new Date();
  const query = options.query ?? {};
  // One pace for the charts and the Workers panel alike.
  const pace = paceOf(await kept.paceFigures());
  // Asked together: each statement waits its turn at the database, so one round of them.
  const [row, figures, queue, span, pipeline, episodes] = await Promise.all([
    kept.row(),
    kept.figures(now),
    queueView(store, runId, pace),
    kept.span(),
    options.manages ? loadPipelineView(store, summary, kept) : null,
    kept.episodes({
      page: query.page || 1,
      status: query.status,
      score: query.score,
      sort: query.sort ? { column: query.sort, dir: query.dir ?? "asc" } : undefined,
    }),
  ]);
  return snapshotOf({
    now,
    revision: kept.revision,
    // Notes are researchers' words to each other: annotators are not sent them.
    summary: options.manages ? summary : { ...summary, notes: "" },
    config: row?.config,
    figures,
    pace,
    span,
    queue,
    pipeline: pipeline ? { ...pipeline, last: options.pipelineLast ?? null } : null,
    episodes,
    query,
    here: options.here,
    stoppable: Boolean(options.here?.active || (options.queueStops && queue)),
  });
}
