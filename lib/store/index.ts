import { episodesToRescore, replaceScores } from "./rescore";
import { runFailureGroups } from "./run-failures";
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
  deferItem,
  reviseLabel,
  myLabels,
  queueFlags,
  goldStanding,
} from "./labels";
import { labelAndNext } from "./label-next";
import { appendQueueItems, browseQueueItems, queuePairKeys } from "./queue-items";
import { latestLabelIsGold, setQueueTraining, storedGold } from "./training";
import { addQueueReviewers, adjudicateItem, isQueueReviewer, queueAdjudications, reviewLabel } from "./reviews";
import {
  addQueueMembers,
  removeQueueMembers,
  setQueueState,
  setQueueInstructions,
  setQueueQuota,
  deleteQueue,
  candidateRefs,
  doneEpisodes,
  episodeRefs,
  findQueue,
  insertQueue,
  itemContent,
  listQueues,
} from "./queues";
import { leaderboard } from "./leaderboard";
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
import { changeRunTags, listRunTags, renameRun, setRunNotes } from "./run-notes";
import { seedSamplesIfEmpty } from "./seed";
import { runEpisodeStats } from "./run-stats";
import { runFigures } from "./run-figures";
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
import { forgetSweetStep, recordSweetStep, sweetStepsOf } from "./sweet-lineage";
import { createPrivilege, databaseCounts, pingDatabase, recordedMigrations, runServers } from "./system";
import {
  coachMode,
  episodeScoring,
  episodeToScore,
  latestBrowserScores,
  liveAdvantages,
  saveBrowserScores,
} from "./episode-scores";
import { recordRunRankSettings, runRankSettings } from "./run-scoring";
import { resolveTaskSelector } from "./task-selector";
import { runSpan } from "./run-span";
import { pipelineCounts } from "./sweet-progress";
import { keptComparison, keptRunsOf } from "./kept-runs";
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
  reapWorkers,
  removeWorker,
  runPaceFigures,
  runTurnCount,
  waitingJobsOfRun,
} from "./workers";

// The one door to the database. Pages, routes, runs, workers and the CLI hold a Store; only the
// modules of this folder hold the Prisma client, so every query the studio makes is found here.
// `storeFor` binds each query module's functions to one Prisma client, one group per area below.

/** A query of this folder, `(prisma, ...args)`, as the store hands it out: `(...args)`. */
type Bind = <A extends unknown[], R>(query: (prisma: PrismaClient, ...args: A) => R) => (...args: A) => R;

export function storeFor(prisma: PrismaClient) {
  const bind: Bind =
    (query) =>
    (...args) =>
      query(prisma, ...args);
  const kept = keptRunsOf(prisma);
  return {
    tasks: taskQueries(bind),
    runs: runQueries(bind, kept, keptComparison(prisma, kept)),
    episodes: episodeQueries(bind),
    sweet: sweetQueries(bind),
    workers: workerQueries(bind),
    system: systemQueries(bind),
    ...accessQueries(bind),
    ...labellingQueries(bind),
    trajectories: trajectoryQueries(bind),
  };
}

const taskQueries = (bind: Bind) => ({
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
});

const runQueries = (bind: Bind, kept: ReturnType<typeof keptRunsOf>, compare: ReturnType<typeof keptComparison>) => ({
  list: bind(listRuns),
  names: bind(listRunNames),
  summary: bind(runSummary),
  episodeStats: bind(runEpisodeStats),
  figures: bind(runFigures),
  find: bind(findRun),
  setArchived: bind(setRunArchived),
  rename: bind(renameRun),
  setNotes: bind(setRunNotes),
  changeTags: bind(changeRunTags),
  tags: bind(listRunTags),
  delete: bind(deleteRun),
  insert: bind(insertRun),
  setStatus: bind(setRunStatus),
  counts: bind(runCounts),
  episodes: bind(listEpisodes),
  doneRewards: bind(doneRewards),
  leaderboard: bind(leaderboard),
  compare,
  openPlays: bind(openPlayRuns),
  sessions: bind(listSessions),
  toRescore: bind(episodesToRescore),
  replaceScores: bind(replaceScores),
  span: bind(runSpan),
  failureGroups: bind(runFailureGroups),
  kept,
});

const episodeQueries = (bind: Bind) => ({
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
});

/** SWEET-RL's rows: samples, pairs, candidates and their scores, a run's template and rank settings. */
const sweetQueries = (bind: Bind) => ({
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
  liveAdvantages: bind(liveAdvantages),
  coachMode: bind(coachMode),
  progress: bind(pipelineCounts),
  template: bind(runTemplate),
  recordTemplate: bind(recordRunTemplate),
  rankSettings: bind(runRankSettings),
  recordRankSettings: bind(recordRunRankSettings),
  recordStep: bind(recordSweetStep),
  forgetStep: bind(forgetSweetStep),
  steps: bind(sweetStepsOf),
});

/** Workers on the queue and the jobs they play. */
const workerQueries = (bind: Bind) => ({
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
});

const systemQueries = (bind: Bind) => ({
  counts: bind(databaseCounts),
  migrations: bind(recordedMigrations),
  ping: bind(pingDatabase),
  createPrivilege: bind(createPrivilege),
  runServers: bind(runServers),
});

/** Who may come in and what they may see: users, sessions, seat links, renders. */
const accessQueries = (bind: Bind) => ({
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
});

/** Labelling queues and their labels. */
const labellingQueries = (bind: Bind) => ({
  queues: {
    insert: bind(insertQueue),
    list: bind(listQueues),
    find: bind(findQueue),
    addMembers: bind(addQueueMembers),
    removeMembers: bind(removeQueueMembers),
    setState: bind(setQueueState),
    setInstructions: bind(setQueueInstructions),
    setQuota: bind(setQueueQuota),
    delete: bind(deleteQueue),
    isMember: bind(isQueueMember),
    doneEpisodes: bind(doneEpisodes),
    episodeRefs: bind(episodeRefs),
    candidateRefs: bind(candidateRefs),
    item: bind(itemContent),
    slots: bind(queueSlots),
    append: bind(appendQueueItems),
    pairKeys: bind(queuePairKeys),
    browse: bind(browseQueueItems),
    setTraining: bind(setQueueTraining),
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
    defer: bind(deferItem),
    revise: bind(reviseLabel),
    mine: bind(myLabels),
    flags: bind(queueFlags),
    goldStanding: bind(goldStanding),
    storedGold: bind(storedGold),
    latestIsGold: bind(latestLabelIsGold),
    review: bind(reviewLabel),
    adjudicate: bind(adjudicateItem),
    adjudications: bind(queueAdjudications),
    addReviewers: bind(addQueueReviewers),
    isReviewer: bind(isQueueReviewer),
    renew: bind(renewLeases),
    progress: bind(queueProgress),
    ofQueue: bind(queueLabels),
    runVotes: bind(runVotes),
  },
});

const trajectoryQueries = (bind: Bind) => ({
  exportOfficial: bind(exportOfficial),
  import: bind(importTrajectories),
  importAdvantages: bind(importAdvantages),
});

export type Store = ReturnType<typeof storeFor>;

const stores = new WeakMap<PrismaClient, Store>();

/** The store of this process's database (opened by `colbench serve` before any request). */
export async function getStore(): Promise<Store> {
  const prisma = await getPrisma();
  let store = stores.get(prisma);
  if (!store) stores.set(prisma, (store = storeFor(prisma)));
  return store;
}
