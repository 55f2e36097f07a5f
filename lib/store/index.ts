import type { PrismaClient } from "../db/generated/client";
import { getPrisma } from "../db";
import {
  countUsers,
  deleteSession,
  insertSeatToken,
  insertSession,
  insertUser,
  listUsers,
  seatByToken,
  sessionUser,
  setUserDisabled,
  setUserToken,
  userByToken,
} from "./access";
import { importAdvantages } from "./advantages";
import {
  appendTurn,
  claimEpisode,
  doneRewards,
  ensureEpisodes,
  episodeClaims,
  episodeRef,
  failEpisode,
  finishEpisode,
  firstEpisodeId,
  lapseAllClaims,
  loadTurn,
  loadTurns,
  renewClaims,
  runCounts,
  unfinishedEpisodes,
} from "./episodes";
import { importTasks } from "./import-tasks";
import { compareRuns, leaderboard } from "./leaderboard";
import { hiddenOfTask, openPlayRuns, pickTask, seatEpisode } from "./play";
import { findRun, getEpisode, insertRun, listEpisodes, listRuns, setRunStatus } from "./runs";
import { seedSamplesIfEmpty } from "./seed";
import {
  agentStates,
  candidatesById,
  candidatesOfEpisode,
  candidatesOfTurn,
  episodeSides,
  insertCandidates,
  pairsOf,
  rankedCandidates,
  replacePairs,
  runSamples,
  scoreCandidates,
  unrankedCandidates,
} from "./sweet";
import { episodeToScore, saveEpisodeScores } from "./episode-scores";
import { resolveTaskSelector } from "./task-selector";
import { getTask, listTasks, taskCounts } from "./tasks";
import { exportOfficial, importTrajectories } from "./trajectories";

// The one door to the database. Pages, routes, runs, workers and the CLI hold a Store; only the
// modules of this folder hold the Prisma client, so every query the studio makes is found here.

export function storeFor(prisma: PrismaClient) {
  const bind =
    <A extends unknown[], R>(query: (prisma: PrismaClient, ...args: A) => R) =>
    (...args: A): R =>
      query(prisma, ...args);
  return {
    tasks: {
      list: bind(listTasks),
      get: bind(getTask),
      counts: bind(taskCounts),
      import: bind(importTasks),
      seedSamplesIfEmpty: bind(seedSamplesIfEmpty),
      resolveSelector: bind(resolveTaskSelector),
      pick: bind(pickTask),
      hidden: bind(hiddenOfTask),
    },
    runs: {
      list: bind(listRuns),
      find: bind(findRun),
      insert: bind(insertRun),
      setStatus: bind(setRunStatus),
      counts: bind(runCounts),
      episodes: bind(listEpisodes),
      doneRewards: bind(doneRewards),
      leaderboard: bind(leaderboard),
      compare: bind(compareRuns),
      openPlays: bind(openPlayRuns),
    },
    episodes: {
      ensure: bind(ensureEpisodes),
      unfinished: bind(unfinishedEpisodes),
      claim: bind(claimEpisode),
      renewClaims: bind(renewClaims),
      lapseAllClaims: bind(lapseAllClaims),
      claims: bind(episodeClaims),
      ref: bind(episodeRef),
      first: bind(firstEpisodeId),
      get: bind(getEpisode),
      forSeat: bind(seatEpisode),
      appendTurn: bind(appendTurn),
      turn: bind(loadTurn),
      turns: bind(loadTurns),
      finish: bind(finishEpisode),
      fail: bind(failEpisode),
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
      saveEpisodeScores: bind(saveEpisodeScores),
    },
    users: {
      insert: bind(insertUser),
      list: bind(listUsers),
      count: bind(countUsers),
      setToken: bind(setUserToken),
      setDisabled: bind(setUserDisabled),
      byToken: bind(userByToken),
    },
    sessions: {
      insert: bind(insertSession),
      user: bind(sessionUser),
      delete: bind(deleteSession),
    },
    seats: {
      insertToken: bind(insertSeatToken),
      byToken: bind(seatByToken),
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
