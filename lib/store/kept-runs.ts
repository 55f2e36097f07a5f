import type { PrismaClient } from "../db/generated/client";
import { compareRuns, taskOutcomes } from "./leaderboard";
import { findRun, listEpisodes, runSummary } from "./runs";
import { figuresAt, runFigures } from "./run-figures";
import { RunMemo, runRevision } from "./run-memo";
import { runSpan } from "./run-span";
import { runSamples } from "./sweet";
import { pipelineCounts, pipelineEpisodeCounts, type EpisodeCounts } from "./sweet-progress";
import { paceFiguresAt, runPaceFigures } from "./workers";

// A run's figures as its pages show them, each counted once per revision of the run (run-memo.ts),
// and Compare's result kept per revision of both runs. `storeFor` hands these out as `store.runs.kept`
// and `store.runs.compare`.

/** `keptRun(runId)`: the run's kept figures; its revision is read once, when this is called. */
export function keptRunsOf(prisma: PrismaClient) {
  const memo = new RunMemo();
  return async (runId: number) => {
    const revision = Number.isSafeInteger(runId) ? await runRevision(prisma, runId) : null;
    const keep = <T>(name: string, count: () => Promise<T>, lasting?: (value: T) => boolean) =>
      memo.get(runId, revision, name, count, lasting);
    return {
      revision,
      summary: () => keep("summary", () => runSummary(prisma, runId)),
      span: () => keep("span", () => runSpan(prisma, runId)),
      // How many ended in the last minutes moves with the clock: counted again from when those ended.
      figures: async (now: Date = new Date()) =>
        figuresAt(await keep("figures", () => runFigures(prisma, runId, now)), now),
      samples: () => keep("samples", () => runSamples(prisma, runId)),
      // While an episode plays, the revision moves with its every turn anyway.
      paceFigures: async () =>
        paceFiguresAt(
          await keep(
            "pace",
            () => runPaceFigures(prisma, runId),
            (f) => f.playing === 0,
          ),
          new Date(),
        ),
      pipelineProgress: async () =>
        pipelineCounts(
          prisma,
          runId,
          await keep<EpisodeCounts>("pipeline episodes", () => pipelineEpisodeCounts(prisma, runId)),
        ),
      outcomes: () => keep("outcomes", () => taskOutcomes(prisma, runId)),
      // The run's row (its configuration) and a page of its episodes: no turn, episode or run write leaves them as they were.
      row: () => keep("row", () => findRun(prisma, runId)),
      episodes: (options: Parameters<typeof listEpisodes>[2] = {}) =>
        keep(`episodes ${JSON.stringify(options)}`, () => listEpisodes(prisma, runId, options)),
      /** A value worked out from the kept ones above (so it too holds until the revision moves), kept under `name`. */
      derived: <T>(name: string, work: () => Promise<T>) => keep(`derived ${name}`, work),
    };
  };
}

export type KeptRun = Awaited<ReturnType<ReturnType<typeof keptRunsOf>>>;

/** Both runs' summaries and outcomes as kept per revision (Compare of a finished run counts them once). */
export function keptComparison(prisma: PrismaClient, keptRun: (runId: number) => Promise<KeptRun>) {
  // Its win-rate interval is 10,000 bootstrap resamples of every shared task, tens of milliseconds on
  // the event loop at 1000 tasks.
  const compared = new RunMemo(16);
  return async (aId: number, bId: number) => {
    // A run compared with itself reads its revision once.
    const a = await keptRun(aId);
    const b = aId === bId ? a : await keptRun(bId);
    const of = (id: number) => (id === aId ? a : b);
    const both = a.revision !== null && b.revision !== null ? `${a.revision}|${bId}:${b.revision}` : null;
    return compared.get(aId, both, `with ${bId}`, () =>
      compareRuns(prisma, aId, bId, { summary: (id) => of(id).summary(), outcomes: (id) => of(id).outcomes() }),
    );
  };
}
