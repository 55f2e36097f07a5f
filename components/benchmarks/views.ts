import type { ComponentType, ReactNode } from "react";
import type { SeatTurn } from "@/lib/play/seat-turns";
import type { SimulatorSeatView } from "@/lib/play/seat-views";
import type { PairView } from "@/lib/label/views";
import type { LeaderboardRow } from "@/lib/store/leaderboard";
import type { RunSummary } from "@/lib/store/runs";
import type { EpisodeStreamState } from "@/components/live/useEpisodeStream";
import type { RenderProfile } from "@/lib/colbench/render-profile";

// What a benchmark shows differently, in one place: the React side of lib/benchmarks' modules.
// Shared components (seats, replay, live view, labelling, charts, forms, the Leaderboard) ask
// `benchmarkViews[benchmark]` for these instead of comparing a benchmark's name. Components that
// use hooks live in "use client" files; plain values and functions stay in each benchmark's
// index.ts so that server components can call them.

/** The score details of a finished episode under "Final answer and score" (EpisodeScore). */
export interface ScoreProps {
  answer: string | null;
  details: ScoreDetails;
  /** The target is hidden information: say so instead of showing it. */
  targetWithheld: boolean;
}

/** What a scorer recorded of an episode, as stored (each benchmark reads its own fields). */
export interface ScoreDetails {
  tests?: Array<{
    name: string;
    expression: string;
    passed: boolean;
    reason: string;
    expected?: string;
    actual?: string;
    /** A failed test's exception message, and what the answer printed during it (backend). */
    message?: string;
    output?: string;
  }>;
  /** What the answer printed while its tests ran (backend; capped by the sandbox). */
  output?: string;
  error?: string;
  answerRender?: string;
  targetRender?: string;
  answerStatus?: string;
  targetStatus?: string;
  answerError?: string;
  targetError?: string;
  reward?: number;
  embedder?: string;
  profile?: RenderProfile;
}

/** A task's hidden information as /api/tasks/ID/hidden gives it to reviewers. */
export interface RevealedHidden {
  groundTruth: string;
  hiddenInformation: string | null;
  testCases: Array<{ name: string; expression: string }> | null;
  /** The target as a scorer last rendered it (a render id), for answers that are pages. */
  scoredRender?: { id: string; profile: string | null } | null;
}

/** The agent seat: how a person works on an answer and hands it in. */
export interface AgentViews {
  /** The editor's label. */
  editorLabel: string;
  /** Beside the editor: something to try the answer with (Python scratch lines, a page preview). */
  Workbench: ComponentType<{ code: string; turns: SeatTurn[] }>;
  /** Whether a message carries the editor's work unless the person unticks it. */
  attachByDefault: boolean;
  /** A message with the editor's work attached, in the form the benchmark finds it in. */
  attach(message: string, code: string): string;
  /** The final answer sent from the editor. */
  answer(code: string): string;
}

/** The collaborator seat: what the person playing the simulated human sees beside the dialogue. */
export interface CollaboratorViews {
  /** Under the dialogue: what the simulator model would be shown of the agent's work (renders, similarity). */
  DialogueExtras?: ComponentType<{ live: EpisodeStreamState; clip: string | null }>;
  /** The hidden information the simulator model would get. */
  Hidden: ComponentType<{ view: SimulatorSeatView }>;
}

/** The replay: what stands beside an agent's proposal at the selected turn (TurnTimeline). */
export interface ReplayViews {
  /** Above the diff: the proposal's render, its similarity to the target. */
  ProposalExtras?: ComponentType<{ index: number; renderId: string | null; similarity?: BrowserSimilarity }>;
  /** The diff's height in pixels. */
  diffHeight: number;
}

/** The CLIP folder the studio serves and the target's render, for similarities computed in a browser. */
export interface BrowserSimilarity {
  clip: string | null;
  targetRenderId: string | null;
}

/** One column of a benchmark's Leaderboard table beyond the common ones. */
export interface LeaderboardColumn {
  header: string;
  numeric?: boolean;
  /** The cell's own classes (beside the common padding) and test id. */
  className?(row: LeaderboardRow): string;
  testId?: string;
  cell(row: LeaderboardRow, table: { baseline?: number }): ReactNode;
  /** The cell as text (exports, the filter box) when `cell` is more than a string. */
  text?(row: LeaderboardRow, table: { baseline?: number }): string;
  /** What the column sorts by, when not its text (null sorts last). */
  sort?(row: LeaderboardRow, table: { baseline?: number }): number | string | null;
}

export interface LeaderboardHeaderProps {
  heading: string;
  /** The benchmark's rows, and those the table shows. */
  all: LeaderboardRow[];
  shown: LeaderboardRow[];
  query: Record<string, string | undefined>;
  baseline?: number;
}

/** The benchmark's Leaderboard table, where it differs from the common one. */
export interface LeaderboardViews {
  /** Columns between Tasks and the reward's, and after the reward's. */
  before: LeaderboardColumn[];
  after: LeaderboardColumn[];
  /** Which rows the table shows, by the page's query (all when absent). */
  shown?(rows: LeaderboardRow[], query: Record<string, string | undefined>): LeaderboardRow[];
  /** The heading and what stands with it (a baseline, filters, warnings); a plain heading when absent. */
  Header?: ComponentType<LeaderboardHeaderProps>;
}

export interface BenchmarkViews {
  /** Its badge's colours (Tailwind background, text and ring classes). */
  badgeTone: string;
  /** Its section's heading (home page, Leaderboard): "Backend programming". */
  heading: string;
  /** The final answer and how it scored. */
  Score: ComponentType<ScoreProps>;
  /** A task's hidden information, once a reviewer reveals it. */
  Hidden: ComponentType<{ taskId: number; hidden: RevealedHidden }>;
  agent: AgentViews;
  collaborator: CollaboratorViews;
  replay: ReplayViews;
  /**
   * Whether its pages compute the similarity of the agent's render to the target in the browser
   * (the collaborator seat, the replay): the page then hands them the CLIP folder it serves.
   */
  similarityInBrowser: boolean;
  /** A labelling pair's hidden information, when the queue shows it (PairSides). */
  PairHidden: ComponentType<{ hidden: NonNullable<PairView["hidden"]> }>;
  /** The live view's side panel: the agent's latest answer while the episode plays (LiveEpisode). */
  LiveAnswer: ComponentType<{ taskId: number; latest: SeatTurn | undefined; code: string | null }>;
  /** "What was run" (RunSpec): rows on how a run of it is scored, from its stored config. */
  specRows?(config: unknown): Array<[string, ReactNode]>;
  /** Under a comparison of two of its runs: how each was scored (Compare). */
  CompareProvenance?: ComponentType<{ runs: RunSummary[] }>;
  /** Run options only this benchmark has, in the new-run form (their inputs' names are the API's fields). */
  RunOptions?: ComponentType;
  leaderboard: LeaderboardViews;
}
