import { episodesToRescore, replaceScores } from "./rescore";
import type { PrismaClient } from "../db/generated/client";
import { getPrisma } from "../db";
import {
  countUsers,
  deleteSession,
  insertSeatToken,
  insertSession,
  insertUser,
  listUsers,
  localUserId,
  seatByToken,
  sessionUser,
  setUserDisabled,
  replaceSignInLink,
  signInLinkState,
  useSignInLink,
  revokeSeatTokens,
  listSeatTokens,
  seatKeyState,
  openSeatToken,
  answerRenderEpisodes,
  targetInMembersQueue,
  episodeTarget,
} from "./access";
import { importAdvantages } from "./advantages";
import {
  appendTurn,
  claimEpisode,
  doneRewards,
  ensureEpisodes,
  episodeClaims,
  episodeFailure,
  episodeRef,
  failEpisode,
  finishEpisode,
  firstEpisodeId,
  claimHolders,
  lapseClaimsOf,
  loadTurn,
  loadTurns,
  releaseClaim,
  releaseClaims,
  renewClaims,
  runClaims,
  setWaiting,
  runFailures,
  runCounts,
  unfinishedEpisodes,
} from "./episodes";
import { importTasks } from "./import-tasks";
import {
  claimGold,
  claimSlot,
  isQueueMember,
  nextAssignment,
  openAssignments,
  queueLabels,
  queueProgress,
  queueSlots,
  renewLeases,
  runVotes,
  skipItem,
  storeLabel,
  undoLastLabel,
} from "./labels";
import { labelAndNext } from "./label-next";
import {
  addQueueMembers,
  candidateRefs,
  doneEpisodes,
  episodeRefs,
  findQueue,
  insertQueue,
  itemContent,
  listQueues,
} from "./queues";
import { compareRuns, leaderboard, taskOutcomes } from "./leaderboard";
import { hiddenOfTask, listSessions, openPlayRuns, pickTask, seatEpisode } from "./play";
import {
  deleteRun,
  findRun,
  getEpisode,
  insertRun,
  listEpisodes,
  listRuns,
  listRunNames,
  runSummary,
  setRunArchived,
  setRunStatus,
} from "./runs";
import { seedSamplesIfEmpty } from "./seed";
import { runEpisodeStats } from "./run-stats";
import { figuresAt, runFigures } from "./run-figures";
import { searchTurns } from "./search";
import {
  agentStates,
  candidatesById,
  candidatesOfEpisode,
  candidatesOfTurn,
  episodeSides,
  insertCandidates,
  pairsOf,
  rankedCandidates,
  runTemplate,
  recordRunTemplate,
  replacePairs,
  runSamples,
  scoreCandidates,
  unrankedCandidates,
} from "./sweet";
import { createPrivilege, databaseCounts, pingDatabase, recordedMigrations, runServers } from "./system";
import { episodeScoring, episodeToScore, latestBrowserScores, saveBrowserScores } from "./episode-scores";
import { recordRunRankSettings, runRankSettings } from "./run-scoring";
import { resolveTaskSelector } from "./task-selector";
import { runSpan } from "./run-span";
import { pipelineCounts, pipelineEpisodeCounts, type EpisodeCounts } from "./sweet-progress";
import { RunMemo, runRevision } from "./run-memo";
import { countTasksFrom, getTask, listTasks, scoredTargetRender, taskCounts, taskExists } from "./tasks";
import { exportOfficial, importTrajectories } from "./trajectories";
import { findQueuedStep, insertQueuedStep } from "./queued-steps";
import {
  beatWorker,
  cancelWaitingJobs,
  deleteJobsOfRun,
  listWorkers,
  orphanedJobs,
  queueDepth,
  queuedEpisodes,
  queuedJobs,
  paceFiguresAt,
  reapWorkers,
  removeWorker,
  runPaceFigures,
  runTurnCount,
  waitingJobsOfRun,
} from "./workers";

// The one door to the database. Pages, routes, runs, workers and the CLI hold a Store; only the
// modules of this folder hold the Prisma client, so every query the studio makes is found here.

export function storeFor(prisma: PrismaClient) {
  const bind =
    <A extends unknown[], R>(query: (prisma: PrismaClient, ...args: A) => R) =>
    (...args: A): R =>
      query(prisma, ...args);
  const memo = new RunMemo();
  // Compare's result, kept per revision of both runs: its win-rate interval is 10,000 bootstrap
  // resamples of every shared task, tens of milliseconds on the event loop at 1000 tasks.
  const compared = new RunMemo(16);
  /**
   * A run's figures as its page shows them, each counted once per revision of the run (lib/store/run-memo.ts);
   * the revision is read once, when this is called.
   */
  const keptRun = async (runId: number) => {
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
  return {
    tasks: {
      list: bind(listTasks),
      get: bind(getTask),
      exists: bind(taskExists),
      scoredTargetRender: bind(scoredTargetRender),
      counts: bind(taskCounts),
      countFrom: bind(countTasksFrom),
      import: bind(importTasks),
      seedSamplesIfEmpty: bind(seedSamplesIfEmpty),
      resolveSelector: bind(resolveTaskSelector),
      pick: bind(pickTask),
      hidden: bind(hiddenOfTask),
    },
    runs: {
      list: bind(listRuns),
      names: bind(listRunNames),
      summary: bind(runSummary),
      episodeStats: bind(runEpisodeStats),
      figures: bind(runFigures),
      find: bind(findRun),
      setArchived: bind(setRunArchived),
      delete: bind(deleteRun),
      insert: bind(insertRun),
      setStatus: bind(setRunStatus),
      counts: bind(runCounts),
      episodes: bind(listEpisodes),
      doneRewards: bind(doneRewards),
      leaderboard: bind(leaderboard),
      // Both runs' summaries and outcomes as kept per revision (Compare of a finished run counts them once).
      compare: async (aId: number, bId: number) => {
        // A run compared with itself reads its revision once.
        const a = await keptRun(aId);
        const b = aId === bId ? a : await keptRun(bId);
        const of = (id: number) => (id === aId ? a : b);
        const both = a.revision !== null && b.revision !== null ? `${a.revision}|${bId}:${b.revision}` : null;
        return compared.get(aId, both, `with ${bId}`, () =>
          compareRuns(prisma, aId, bId, { summary: (id) => of(id).summary(), outcomes: (id) => of(id).outcomes() }),
        );
      },
      openPlays: bind(openPlayRuns),
      sessions: bind(listSessions),
      toRescore: bind(episodesToRescore),
      replaceScores: bind(replaceScores),
      span: bind(runSpan),
      kept: keptRun,
    },
    episodes: {
      ensure: bind(ensureEpisodes),
      unfinished: bind(unfinishedEpisodes),
      claim: bind(claimEpisode),
      renewClaims: bind(renewClaims),
      setWaiting: bind(setWaiting),
      releaseClaims: bind(releaseClaims),
      releaseClaim: bind(releaseClaim),
      claimHolders: bind(claimHolders),
      lapseClaimsOf: bind(lapseClaimsOf),
      claims: bind(episodeClaims),
      claimsOfRun: bind(runClaims),
      ref: bind(episodeRef),
      first: bind(firstEpisodeId),
      get: bind(getEpisode),
      search: bind(searchTurns),
      forSeat: bind(seatEpisode),
      appendTurn: bind(appendTurn),
      turn: bind(loadTurn),
      turns: bind(loadTurns),
      finish: bind(finishEpisode),
      fail: bind(failEpisode),
      failure: bind(episodeFailure),
      failuresOfRun: bind(runFailures),
    },
    sweet: {
      samples: bind(runSamples),
      episodeSides: bind(episodeSides),
      replacePairs: bind(replacePairs),
      pairs: bind(pairsOf),
      states: bind(agentStates),
      insertCandidates: bind(insertCandidates),
      unranked: bind(unrankedCandidates),
      score: bind(scoreCandidates),
      ranked: bind(rankedCandidates),
      ofTurn: bind(candidatesOfTurn),
      byId: bind(candidatesById),
      ofEpisode: bind(candidatesOfEpisode),
      episodeToScore: bind(episodeToScore),
      saveBrowserScores: bind(saveBrowserScores),
      latestBrowserScores: bind(latestBrowserScores),
      episodeScoring: bind(episodeScoring),
      progress: bind(pipelineCounts),
      template: bind(runTemplate),
      recordTemplate: bind(recordRunTemplate),
      rankSettings: bind(runRankSettings),
      recordRankSettings: bind(recordRunRankSettings),
    },
    workers: {
      beat: bind(beatWorker),
      remove: bind(removeWorker),
      list: bind(listWorkers),
      reap: bind(reapWorkers),
      queued: bind(queuedJobs),
      paceFigures: bind(runPaceFigures),
      cancelWaitingJobs: bind(cancelWaitingJobs),
      deleteJobsOfRun: bind(deleteJobsOfRun),
      queuedEpisodes: bind(queuedEpisodes),
      queueDepth: bind(queueDepth),
      waitingJobsOfRun: bind(waitingJobsOfRun),
      runTurnCount: bind(runTurnCount),
      orphanedJobs: bind(orphanedJobs),
      insertStep: bind(insertQueuedStep),
      step: bind(findQueuedStep),
    },
    system: {
      counts: bind(databaseCounts),
      migrations: bind(recordedMigrations),
      ping: bind(pingDatabase),
      createPrivilege: bind(createPrivilege),
      runServers: bind(runServers),
    },
    users: {
      insert: bind(insertUser),
      list: bind(listUsers),
      count: bind(countUsers),
      replaceLink: bind(replaceSignInLink),
      setDisabled: bind(setUserDisabled),
      linkState: bind(signInLinkState),
      useLink: bind(useSignInLink),
      localId: bind(localUserId),
    },
    sessions: {
      insert: bind(insertSession),
      user: bind(sessionUser),
      delete: bind(deleteSession),
    },
    seats: {
      insertToken: bind(insertSeatToken),
      byToken: bind(seatByToken),
      keyState: bind(seatKeyState),
      open: bind(openSeatToken),
      list: bind(listSeatTokens),
      revoke: bind(revokeSeatTokens),
      target: bind(episodeTarget),
    },
    renders: {
      answerEpisodes: bind(answerRenderEpisodes),
      targetInMembersQueue: bind(targetInMembersQueue),
    },
    queues: {
      insert: bind(insertQueue),
      list: bind(listQueues),
      find: bind(findQueue),
      addMembers: bind(addQueueMembers),
      isMember: bind(isQueueMember),
      doneEpisodes: bind(doneEpisodes),
      episodeRefs: bind(episodeRefs),
      candidateRefs: bind(candidateRefs),
      item: bind(itemContent),
      slots: bind(queueSlots),
    },
    labels: {
      claimSlot: bind(claimSlot),
      claimGold: bind(claimGold),
      next: bind(nextAssignment),
      open: bind(openAssignments),
      store: bind(storeLabel),
      storeAndNext: bind(labelAndNext),
      undo: bind(undoLastLabel),
      skip: bind(skipItem),
      renew: bind(renewLeases),
      progress: bind(queueProgress),
      ofQueue: bind(queueLabels),
      runVotes: bind(runVotes),
    },
    trajectories: {
      exportOfficial: bind(exportOfficial),
      import: bind(importTrajectories),
      importAdvantages: bind(importAdvantages),
    },
  };
}

export type Store = ReturnType<typeof storeFor>;

const stores = new WeakMap<PrismaClient, Store>();

/** The store of this process's database (opened by `colbench serve` before any request). */
export async function getStore(): Promise<Store> {
  const prisma = await getPrisma();
  let store = stores.get(prisma);
  if (!store) stores.set(prisma, (store = storeFor(prisma)));
  return store;
}
