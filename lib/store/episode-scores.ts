import type { Prisma, PrismaClient } from "../db/generated/client";
import type { RecordedTemplate } from "../sweet/chat-template";
import { compareScores, type ScoreComparison, type StoredTurn } from "../sweet/compare-scores";
import {
  describeRankSettings,
  describeTemplate,
  isRankSettings,
  sameRankSettings,
  sameTemplate,
  type RankSettings,
} from "../sweet/rank-settings";

// One episode scored outside the ranking step, by a browser that runs the critic and the policy the
// studio serves: what it needs (the run's recorded template and rank settings with the turns), and
// what comes back, kept as a record of its own beside what `rank` stored, never over it.

export interface EpisodeToScore {
  episodeId: number;
  /** The episode's run (null: an episode played outside any run). */
  run: { id: number; name: string } | null;
  /** The run's recorded chat template (a model's own with its day, or a fallback), or null where none is recorded. */
  template: RecordedTemplate | null;
  /** The settings the run's ranking recorded, or null where none are. */
  settings: RankSettings | null;
  /** The task's final answer (hidden information: the critic is told it), null when the run's ranking leaves it out. */
  groundTruth: string | null;
  turns: Array<{ index: number; prompt: unknown; output: string; candidates: Array<{ index: number; text: string }> }>;
}

export async function episodeToScore(prisma: PrismaClient, episodeId: number): Promise<EpisodeToScore | null> {
  const episode = await prisma.episode.findUnique({
    where: { id: episodeId },
    select: {
      id: true,
      run: { select: { id: true, name: true, config: true } },
      task: { select: { groundTruth: true } },
      turns: {
        where: { role: "agent" },
        orderBy: { index: "asc" },
        select: {
          index: true,
          prompt: true,
          rawOutput: true,
          content: true,
          candidates: { orderBy: { index: "asc" }, select: { index: true, text: true } },
        },
      },
    },
  });
  if (!episode) return null;
  const { template, settings } = recordedScoring(episode.run?.config);
  return {
    episodeId: episode.id,
    run: episode.run ? { id: episode.run.id, name: episode.run.name } : null,
    template,
    settings,
    groundTruth: settings?.groundTruth === false ? null : episode.task.groundTruth,
    turns: episode.turns.map((t) => ({
      index: t.index,
      prompt: t.prompt,
      output: t.rawOutput ?? t.content,
      candidates: t.candidates,
    })),
  };
}

/** The template and rank settings a run's config records (lib/sweet/run-template.ts writes them). */
export function recordedScoring(config: unknown): { template: RecordedTemplate | null; settings: RankSettings | null } {
  const c = config as { sweetTemplate?: unknown; sweetRank?: unknown } | null;
  const template =
    c?.sweetTemplate &&
    typeof c.sweetTemplate === "object" &&
    typeof (c.sweetTemplate as { ref?: unknown }).ref === "string"
      ? (c.sweetTemplate as RecordedTemplate)
      : null;
  return {
    template,
    settings: isRankSettings(c?.sweetRank) ? { sum: c.sweetRank.sum, groundTruth: c.sweetRank.groundTruth } : null,
  };
}

export interface ScoredValues {
  criticScore: number | null;
  policyMean: number | null;
  policySum: number | null;
  advantage: number | null;
}

export interface TurnScores extends ScoredValues {
  /** The agent turn's index in the episode. */
  turn: number;
  /** Its candidates' scores, where it has candidates (index 0, the turn's own output, among them). */
  candidates?: Array<ScoredValues & { index: number }>;
}

/** What `rank` has stored for an episode's agent turns: each candidate's values and models, and the turn's advantage. */
export async function storedScores(prisma: PrismaClient, episodeId: number): Promise<StoredTurn[]> {
  const turns = await prisma.turn.findMany({
    where: { episodeId, role: "agent" },
    orderBy: { index: "asc" },
    select: {
      index: true,
      advantage: true,
      candidates: {
        orderBy: { index: "asc" },
        select: {
          index: true,
          criticModel: true,
          criticScore: true,
          policyModel: true,
          policyMean: true,
          policySum: true,
          advantage: true,
        },
      },
    },
  });
  return turns.map((t) => ({ turn: t.index, advantage: t.advantage, candidates: t.candidates }));
}

/** How a browser scored: its device, the models the studio served, and the definition it used. */
export interface BrowserScoringMeta {
  device: string;
  models: { critic: string; policy: string };
  template: RecordedTemplate;
  templateFrom: "run" | "critic" | "fallback";
  settings: RankSettings;
  settingsFrom: "run" | "default";
}

export interface BrowserScoringRecord extends Omit<BrowserScoringMeta, "models"> {
  id: number;
  createdAt: string;
  criticModel: string;
  policyModel: string;
  turns: TurnScores[];
  comparison: ScoreComparison;
}

export class ScoreError extends Error {}

/**
 * Keeps what a browser computed for an episode's agent turns as a record of its own, with how far it
 * is from what `rank` stored for the same turns by the same models. Nothing `rank` wrote (Candidate,
 * Turn) is touched. Refused, with nothing stored: a turn that is not an agent turn of the episode, a
 * candidate it does not have, or a definition other than the one the run recorded (the browser was
 * given the run's record; another template or settings would not be the same score).
 */
export async function saveBrowserScores(
  prisma: PrismaClient,
  episodeId: number,
  meta: BrowserScoringMeta,
  turns: TurnScores[],
): Promise<{ id: number; turns: number; candidates: number; comparison: ScoreComparison }> {
  const episode = await prisma.episode.findUnique({
    where: { id: episodeId },
    select: { run: { select: { name: true, config: true } } },
  });
  if (!episode) throw new ScoreError(`no episode ${episodeId}`);
  const recorded = recordedScoring(episode.run?.config);
  const run = episode.run?.name ?? "";
  if (recorded.template && !sameTemplate(recorded.template, meta.template)) {
    throw new ScoreError(
      `run ${run} writes its strings in the chat template ${describeTemplate(recorded.template)}; these scores were computed with ${describeTemplate(meta.template)}`,
    );
  }
  if (recorded.settings && !sameRankSettings(recorded.settings, meta.settings)) {
    throw new ScoreError(
      `run ${run} is ranked with ${describeRankSettings(recorded.settings)}; these scores were computed with ${describeRankSettings(meta.settings)}`,
    );
  }
  const stored = await storedScores(prisma, episodeId);
  const kinds = await prisma.turn.findMany({ where: { episodeId }, select: { index: true, role: true } });
  const roles = new Map(kinds.map((t) => [t.index, t.role]));
  const byTurn = new Map(stored.map((t) => [t.turn, t]));
  let candidates = 0;
  for (const t of turns) {
    const role = roles.get(t.turn);
    if (!role) throw new ScoreError(`turns: episode ${episodeId} has no turn ${t.turn}`);
    if (role !== "agent")
      throw new ScoreError(
        `turns: turn ${t.turn} of episode ${episodeId} is the simulator's; scores belong to agent turns`,
      );
    const have = byTurn.get(t.turn)!;
    for (const c of t.candidates ?? []) {
      if (!have.candidates.some((s) => s.index === c.index))
        throw new ScoreError(`turns: turn ${t.turn} has no candidate ${c.index}`);
      candidates++;
    }
  }
  const comparison = compareScores(turns, stored, meta.models);
  const row = await prisma.browserScoring.create({
    data: {
      episodeId,
      device: meta.device,
      criticModel: meta.models.critic,
      policyModel: meta.models.policy,
      template: meta.template as unknown as Prisma.InputJsonValue,
      templateFrom: meta.templateFrom,
      sum: meta.settings.sum,
      groundTruth: meta.settings.groundTruth,
      settingsFrom: meta.settingsFrom,
      turns: turns as unknown as Prisma.InputJsonValue,
      comparison: comparison as unknown as Prisma.InputJsonValue,
      maxDiff: comparison.maxDiff,
    },
    select: { id: true },
  });
  return { id: row.id, turns: turns.length, candidates, comparison };
}

/** An episode's latest browser scoring, or null. */
export async function latestBrowserScores(
  prisma: PrismaClient,
  episodeId: number,
): Promise<BrowserScoringRecord | null> {
  const row = await prisma.browserScoring.findFirst({ where: { episodeId }, orderBy: { id: "desc" } });
  if (!row) return null;
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    device: row.device,
    criticModel: row.criticModel,
    policyModel: row.policyModel,
    template: row.template as unknown as RecordedTemplate,
    templateFrom: row.templateFrom as BrowserScoringRecord["templateFrom"],
    settings: { sum: row.sum, groundTruth: row.groundTruth },
    settingsFrom: row.settingsFrom as BrowserScoringRecord["settingsFrom"],
    turns: row.turns as unknown as TurnScores[],
    comparison: row.comparison as unknown as ScoreComparison,
  };
}

/** What the replay shows about an episode's scores: the run's definition, what `rank` stored, the latest browser record. */
export async function episodeScoring(
  prisma: PrismaClient,
  episodeId: number,
): Promise<{
  run: { template: RecordedTemplate | null; settings: RankSettings | null };
  stored: StoredTurn[];
  browser: BrowserScoringRecord | null;
} | null> {
  const episode = await prisma.episode.findUnique({
    where: { id: episodeId },
    select: { run: { select: { config: true } } },
  });
  if (!episode) return null;
  const [stored, browser] = await Promise.all([
    storedScores(prisma, episodeId),
    latestBrowserScores(prisma, episodeId),
  ]);
  return { run: recordedScoring(episode.run?.config), stored, browser };
}

/** One agent turn's live advantage: the latest value computed for it, and what computed it. */
export interface LiveAdvantage extends ScoredValues {
  turn: number;
  /** The record it was kept in. */
  record: number;
  createdAt: string;
  /** The adapter ("… (software)"), prefixed "studio: " where the studio's process computed it; "servers: named by …" where model servers did. */
  device: string;
  criticModel: string;
  policyModel: string;
  /** The template and settings, as `rank` would describe them. */
  template: string;
  settings: string;
}

/**
 * Every agent turn's latest live advantage, read off the episode's scoring records (a turn scored
 * as it was stored, or the whole episode from the replay): numbers and what computed them, never a
 * prompt, so it is what a seat may be shown of the critic's judgement.
 */
export async function liveAdvantages(prisma: PrismaClient, episodeId: number): Promise<LiveAdvantage[]> {
  const rows = await prisma.browserScoring.findMany({ where: { episodeId }, orderBy: { id: "asc" } });
  const byTurn = new Map<number, LiveAdvantage>();
  for (const row of rows) {
    for (const t of row.turns as unknown as TurnScores[]) {
      byTurn.set(t.turn, {
        turn: t.turn,
        criticScore: t.criticScore,
        policyMean: t.policyMean,
        policySum: t.policySum,
        advantage: t.advantage,
        record: row.id,
        createdAt: row.createdAt.toISOString(),
        device: row.device,
        criticModel: row.criticModel,
        policyModel: row.policyModel,
        template: describeTemplate(row.template as unknown as RecordedTemplate),
        settings: describeRankSettings({ sum: row.sum, groundTruth: row.groundTruth }),
      });
    }
  }
  return [...byTurn.values()].sort((a, b) => a.turn - b.turn);
}

/**
 * Whether a person playing the agent is shown the critic's judgement of each turn they send ("coach
 * mode"): on in practice play (a run made with a person in a seat, kind `played`), off in evaluation
 * runs, where it would change how the person plays. Null: no such episode.
 */
export async function coachMode(prisma: PrismaClient, episodeId: number): Promise<boolean | null> {
  const episode = await prisma.episode.findUnique({
    where: { id: episodeId },
    select: { run: { select: { kind: true } } },
  });
  if (!episode) return null;
  return episode.run?.kind === "played";
}
