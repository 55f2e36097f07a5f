import type { z } from "zod";
import type { EpisodeRules } from "../colbench/episode";
import type { FieldProblem, TaskInput } from "../colbench/tasks";
import type { Simulator } from "../colbench/roles";
import type { OpenAICompatibleClient } from "../models/openai-client";
import type { FileProgress } from "../hub";
import type { LabelHidden, LabelSide } from "./label";
import type { ScoreCli } from "./score-cli";
import type { OpenScorer } from "./scorer";

// What a benchmark is, in one place. Everything the studio does differently per benchmark asks
// its module through this interface; nothing outside lib/benchmarks/ and components/benchmarks/
// compares a benchmark's name. A module is light to import (no scorer, no browser, no node:fs at
// its top level), so pages and listings may read it; what is heavy comes through `runtime()`.

/** What an agent hands in, and how a person edits it in the agent's seat. */
export interface AnswerKind {
  /** "code": a function in `language`; "page": an HTML page, rendered; "text": a written answer. */
  kind: "code" | "page" | "text";
  /** The editor's language. */
  language: "python" | "html" | "markdown";
  /** What one is called in a sentence: "code", "page", "answer". */
  noun: string;
}

/** One task record of the benchmark's own file format, in and out. */
export interface TaskFormat {
  /** The official record's fields as zod checks them (names of problems follow the record's keys). */
  schema: z.ZodType<Record<string, unknown>>;
  /** A decoded record, validated, in the studio's shape. */
  parse(record: unknown): { ok: true; task: TaskInput } | { ok: false; problems: FieldProblem[] };
  /** Back to the official record (exports, trajectories): byte for byte what the benchmark's own code reads. */
  official(task: TaskInput): Record<string, unknown>;
  /** Whether a record found inside a trajectory file without a benchmark named is this benchmark's. */
  recognizes(record: Record<string, unknown>): boolean;
}

/** Where the benchmark's published task files are, for `colbench import --official`. */
export interface OfficialSource {
  /** The hub dataset's id. */
  dataset: string;
  /** The file of a split inside it. */
  file(split: "train" | "test"): string;
  /** The split's other files, where the dataset keeps a split in several (lighteval/MATH-Hard: one per subject); imported after `file`. */
  moreFiles?(split: "train" | "test"): string[];
  /** Said when the dataset lacks the file, in place of importing it. */
  absentNote?: string;
  /** Whether a dataset without this benchmark's file is still worth importing others from. */
  optional: boolean;
}

/** The benchmark's reward, as tables, charts and lines name and print it. */
export interface RewardRule {
  /** Its name as a column heads it: "Success", "Similarity". */
  name: string;
  /** What one reward measures, as charts and columns of means name it: "% tests passed", "similarity". */
  measure: string;
  /** One reward as a cell prints it: "75%", "0.812". */
  format(reward: number): string;
  /** One episode's score in a sentence: "75% of the hidden tests passed". */
  sentence(reward: number): string;
  /**
   * What made a run's rewards when that decides whether they compare (frontend: the image embedder),
   * from the run's stored config: every similarity names it. Absent or null: nothing to name.
   */
  scoredBy?(config: unknown): { label: string; paperMetric: boolean } | null;
  /**
   * Whether the benchmark has a pass/fail outcome (a reward of 1): runs then show a success rate and
   * best-of-k success; a graded benchmark (similarity) shows means only.
   */
  hasSuccess: boolean;
}

/** Trajectory-level preference pairs from one task's best-of-k samples, by the benchmark's published rule. */
export interface PairRule {
  /** The rule's name as stored with pairs and shown in "What was run". */
  name: string;
  /** What a pair is, said after "a pair is" when a run's samples make none (the pipeline panel). */
  what: string;
  /** Indices (into `rewards`, finite only) of the chosen/rejected pairs, in the published order. */
  pairs(rewards: readonly number[]): Array<[chosen: number, rejected: number]>;
}

/** Which parts of a task are hidden from the agent's seat, named for the allow-listed views. */
export interface HiddenParts {
  /** One line for the hidden-information panel: what the simulator (and a critic) know that the agent does not. */
  summary: string;
  /** What a labelling queue that shows hidden information sends: from the task and a side's score details (allow-listed). */
  label(task: Pick<TaskInput, "groundTruth" | "testCases">, details: unknown): LabelHidden;
}

/** Why two runs' rewards, made under different settings, may not be compared (lib/store's Leaderboard and Compare ask). */
export interface ScoreMismatch {
  /** What differs, as a table names it: "render profile", "embedder". */
  by: string;
  /** The sentence saying so, with how to make the two comparable. */
  reason: string;
}

/** What is heavy: opened only when a run is played or scored. */
export interface BenchmarkRuntime {
  /** The run's scorer, with the services it brings (a page renderer for page answers). */
  openScorer(config: Record<string, unknown>): Promise<OpenScorer>;
  /** The simulated human played by a model server, prompted with the run's simulator prompt. */
  modelSimulator(client: OpenAICompatibleClient, prompt: string): Simulator;
  /** Fetches, with progress, what playing a run will read (frontend: CLIP's weights), so it is not fetched silently mid-run. */
  prefetch?(config: Record<string, unknown>, onProgress: (progress: FileProgress) => void): Promise<void>;
}

export interface BenchmarkModule<Options extends z.ZodRawShape = z.ZodRawShape> {
  /** The registry key, stored with tasks, runs and queues. */
  name: string;
  /** A short line for forms: "backend (Python function)". */
  title: string;
  answer: AnswerKind;
  task: TaskFormat;
  official: OfficialSource | null;
  /** The dialogue's rules: reply cut, what a turn proposes, how the final answer is taken. */
  episode: EpisodeRules;
  /** The agent seat editor's first text for a task. */
  starter(problemDescription: string): string;
  /** What an agent turn proposes, for showing answers turn by turn (null when it proposes nothing). */
  proposalOf(turn: { role: "agent" | "simulator"; content: string; html?: string | null }): string | null;
  reward: RewardRule;
  pairRule: PairRule;
  hidden: HiddenParts;
  /** What the labelling page shows of one side's score details; `hidden`: whether the queue shows hidden information. */
  labelSide(details: unknown, hidden: boolean): LabelSide;
  /** The benchmark's own run options (the run config is the common fields plus these, by benchmark). */
  runOptions: Options;
  /** Lines `colbench run` prints about those options before it starts (none for most benchmarks). */
  describeRun(config: Record<string, unknown>): string[];
  /**
   * A new run's options from what the form or `colbench run` asked (unchecked): checked, with the
   * choices made once that every resume keeps (frontend: placeholder photo, embedder). Absent: none.
   */
  prepareRun?(asked: Record<string, unknown>): Promise<{ options: Record<string, unknown>; notice?: string }>;
  /** `colbench score NAME`: the benchmark's own scoring of a JSONL file (absent: none). */
  scoreCli?: ScoreCli;
  /** Why two of its runs (name and stored config) may not be compared, most telling first; absent: any two compare. */
  scoreMismatches?(a: { name: string; config: unknown }, b: { name: string; config: unknown }): ScoreMismatch[];
  /** Said on stderr with `colbench export --format official` when the benchmark's published script cannot run all of itself on the file. */
  officialExportNotice?: string;
  runtime(): Promise<BenchmarkRuntime>;
}
