import type { z } from "zod";
import type { EpisodeRules } from "../colbench/episode";
import type { FieldProblem, TaskInput } from "../colbench/tasks";
import type { Simulator } from "../colbench/roles";
import type { OpenAICompatibleClient } from "../models/openai-client";
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
  /** Said when the dataset lacks the file, in place of importing it. */
  absentNote?: string;
  /** Whether a dataset without this benchmark's file is still worth importing others from. */
  optional: boolean;
}

/** The benchmark's reward, as tables, charts and lines name and print it. */
export interface RewardRule {
  /** Its name as a column heads it: "Success", "Similarity". */
  name: string;
  /** One reward as a cell prints it: "75%", "0.812". */
  format(reward: number): string;
  /** One episode's score in a sentence: "75% of the hidden tests passed". */
  sentence(reward: number): string;
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
  /** Indices (into `rewards`, finite only) of the chosen/rejected pairs, in the published order. */
  pairs(rewards: readonly number[]): Array<[chosen: number, rejected: number]>;
}

/** Which parts of a task are hidden from the agent's seat, named for the allow-listed views. */
export interface HiddenParts {
  /** One line for the hidden-information panel: what the simulator (and a critic) know that the agent does not. */
  summary: string;
}

/** What is heavy: opened only when a run is played or scored. */
export interface BenchmarkRuntime {
  /** The run's scorer, with the services it brings (a page renderer for page answers). */
  openScorer(config: Record<string, unknown>): Promise<OpenScorer>;
  /** The simulated human played by a model server, prompted with the run's simulator prompt. */
  modelSimulator(client: OpenAICompatibleClient, prompt: string): Simulator;
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
  /** The benchmark's own run options (the run config is the common fields plus these, by benchmark). */
  runOptions: Options;
  /** Lines `colbench run` prints about those options before it starts (none for most benchmarks). */
  describeRun(config: Record<string, unknown>): string[];
  runtime(): Promise<BenchmarkRuntime>;
}
