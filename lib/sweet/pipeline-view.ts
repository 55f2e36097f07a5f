import type { PipelineStep } from "../events";
import { benchmarkOf, type Benchmark } from "../benchmarks";
import type { Store } from "../store";
import type { PipelineCounts } from "../store/sweet-progress";
import type { RunSample } from "../store/sweet";
import { trajectoryPairs } from "./trajectory-pairs";
import { emptyLineage, loadLineage, type PipelineLineage } from "./lineage";

// What the run page's training-data panel (and `colbench export` on an empty result) says about
// SWEET-RL's steps on a run: each step's state and counts, from the rows the steps stored, which
// step comes next, and why a step with nothing to work on cannot run yet. Pure: counts in, words out.

export type StepState = "done" | "partly" | "ready" | "blocked";

export interface StepView {
  step: PipelineStep;
  /** 1..4, as the panel numbers them. */
  number: number;
  title: string;
  state: StepState;
  /** What the step has made so far, e.g. "20 trajectory pairs from 14 tasks". */
  made: string;
  /** What it works on, e.g. "42 agent turns of 12 finished episodes". */
  input: string;
  /** Blocked: why, and what to do first. */
  why?: string;
}

export interface ExportView {
  format: string;
  /** What a line of the file is, e.g. "one line per trajectory pair (critic training)". */
  holds: string;
  lines: number;
  /** Empty: which step makes its lines, in the panel's words and the CLI's. */
  empty?: { step: PipelineStep | "run"; panel: string; cli: string };
}

export interface PipelineView {
  counts: PipelineCounts & { pairable: number; benchmark: Benchmark };
  steps: StepView[];
  /** The first step not done that can run, or null when every step is done or none can run. */
  next: PipelineStep | null;
  exports: ExportView[];
  /** What made each step's output: its records, latest first (the panel shows them and starts its forms from them). */
  lineage: PipelineLineage;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * `pairable`: how many trajectory pairs the benchmark's rule finds in the run's finished samples now
 * (what "Make trajectory pairs" would store), so a step that would make nothing says so before it runs.
 */
export function pipelineView(
  c: PipelineCounts & { pairable: number; benchmark: Benchmark },
  run = "RUN",
  lineage: PipelineLineage = emptyLineage(),
): PipelineView {
  const steps = stepViews(c);
  const next = steps.find((s) => s.state === "ready" || s.state === "partly")?.step ?? null;
  return { counts: c, steps, next, exports: exportViews(c, run), lineage };
}

type ViewCounts = PipelineCounts & { pairable: number; benchmark: Benchmark };

/** The four steps: each one's state, what it made, what it works on, and why it cannot run yet. */
function stepViews(c: ViewCounts): StepView[] {
  const pairsWhy =
    c.episodesDone === 0
      ? "no finished episode yet: pairs compare finished samples of one task; let the run finish first"
      : c.tasksWithTwoSamples === 0
        ? "no task has two finished samples: a pair is a better and a worse sample of one task, so start the run with Best of k at 2 or more"
        : c.pairable === 0
          ? `no task has a better and a worse sample: a pair is ${benchmarkOf(c.benchmark).pairRule.what}`
          : undefined;
  return [
    {
      step: "pairs",
      number: 1,
      title: "Trajectory pairs",
      state:
        c.trajectoryPairs > 0 && c.trajectoryPairs === c.pairable
          ? "done"
          : c.pairable > 0
            ? c.trajectoryPairs > 0
              ? "partly"
              : "ready"
            : c.trajectoryPairs > 0
              ? "done"
              : "blocked",
      made: `${plural(c.trajectoryPairs, "trajectory pair")}${c.pairable !== c.trajectoryPairs && c.pairable > 0 ? ` (the finished samples make ${c.pairable} now)` : ""}`,
      input: `${plural(c.episodesDone, "finished episode")}; ${plural(c.tasksWithTwoSamples, "task")} with two or more finished samples`,
      ...(pairsWhy && c.trajectoryPairs === 0 ? { why: pairsWhy } : {}),
    },
    {
      step: "candidates",
      number: 2,
      title: "Candidates",
      state:
        c.states === 0
          ? "blocked"
          : c.statesWithCandidates === 0
            ? "ready"
            : c.statesWithCandidates < c.states
              ? "partly"
              : "done",
      made: `${plural(c.candidates, "candidate")} for ${c.statesWithCandidates} of ${plural(c.states, "agent turn")}`,
      input: `${plural(c.states, "agent turn")} of finished episodes (each turn's own output is stored beside its samples as candidate 0)`,
      ...(c.states === 0
        ? {
            why: "no agent turn of a finished episode yet: candidates are alternatives to the agent's turns; let the run finish first",
          }
        : {}),
    },
    {
      step: "rank",
      number: 3,
      title: "Ranking",
      state: c.candidates === 0 ? "blocked" : c.ranked === 0 ? "ready" : c.ranked < c.candidates ? "partly" : "done",
      made: `${c.ranked} of ${plural(c.candidates, "candidate")} scored by a critic`,
      input: `${plural(c.candidates - c.ranked, "candidate")} not yet scored`,
      ...(c.candidates === 0 ? { why: "no candidates to rank: sample candidates first (step 2)" } : {}),
    },
    {
      step: "turn-pairs",
      number: 4,
      title: "Turn pairs",
      state: c.turnPairs > 0 ? "done" : c.ranked > 0 ? "ready" : "blocked",
      made: `${plural(c.turnPairs, "turn pair")}`,
      input: `${plural(c.rankedStates, "agent turn")} with ranked candidates`,
      ...(c.ranked === 0
        ? {
            why:
              c.candidates === 0
                ? "nothing ranked yet: sample candidates (step 2), then rank them (step 3)"
                : "nothing ranked yet: rank the candidates first (step 3)",
          }
        : {}),
    },
  ];
}

/** The training files: what a line of each holds, how many lines it has, and which step fills an empty one. */
function exportViews(c: ViewCounts, run: string): ExportView[] {
  const needsPairs = {
    step: "pairs" as const,
    panel: "make trajectory pairs first (step 1)",
    cli: `no trajectory pairs yet: run \`colbench pairs ${run}\` first`,
  };
  const needsTurnPairs =
    c.candidates === 0
      ? {
          step: "candidates" as const,
          panel: "sample candidates, rank them and draw turn pairs first (steps 2-4)",
          cli: `no turn pairs yet: run \`colbench candidates ${run} --policy URL#MODEL\`, then \`colbench rank ${run} --critic URL#MODEL\` and \`colbench turn-pairs ${run}\``,
        }
      : c.ranked === 0
        ? {
            step: "rank" as const,
            panel: "rank the candidates and draw turn pairs first (steps 3-4)",
            cli: `no turn pairs yet: run \`colbench rank ${run} --critic URL#MODEL\`, then \`colbench turn-pairs ${run}\``,
          }
        : {
            step: "turn-pairs" as const,
            panel: "draw turn pairs first (step 4)",
            cli: `no turn pairs yet: run \`colbench turn-pairs ${run}\``,
          };
  const noEpisodes = {
    step: "run" as const,
    panel: "no finished episode yet",
    cli: "no finished episode yet: the run has nothing to export",
  };
  return [
    {
      format: "official",
      holds: "one trajectory per finished episode, task by task (the benchmark's format)",
      lines: c.episodesDone,
      ...(c.episodesDone ? {} : { empty: noEpisodes }),
    },
    {
      format: "official-best-of-k",
      holds: "one trajectory per finished episode, in the benchmark's best-of-k order",
      lines: c.episodesDone,
      ...(c.episodesDone ? {} : { empty: noEpisodes }),
    },
    {
      format: "openrlhf-critic",
      holds: "one line per trajectory pair (critic training, OpenRLHF)",
      lines: c.trajectoryPairs,
      ...(c.trajectoryPairs ? {} : { empty: needsPairs }),
    },
    {
      format: "published-frontend-critic",
      holds: "one line per trajectory pair, sides as {input, output} (the published frontend critic's shape)",
      lines: c.trajectoryPairs,
      ...(c.trajectoryPairs ? {} : { empty: needsPairs }),
    },
    {
      format: "openrlhf-policy",
      holds: "one line per turn pair (policy DPO, OpenRLHF)",
      lines: c.turnPairs,
      ...(c.turnPairs ? {} : { empty: needsTurnPairs }),
    },
    {
      format: "trl-dpo",
      holds: "one line per turn pair (policy DPO, TRL)",
      lines: c.turnPairs,
      ...(c.turnPairs ? {} : { empty: needsTurnPairs }),
    },
  ];
}

/** A run's pipeline as the panel and `colbench export` describe it, counted from the store. */
export async function loadPipelineView(
  store: Store,
  run: { id: number; name: string; benchmark: Benchmark },
  kept?: Awaited<ReturnType<Store["runs"]["kept"]>>,
): Promise<PipelineView> {
  // The run page passes what it keeps per revision of the run; others count afresh.
  const pairable = async (samples: Promise<RunSample[]>) =>
    trajectoryPairs(
      run.benchmark,
      (await samples).map((s) => ({ task: s.taskId, sample: s.sample, reward: s.reward, id: s.episodeId })),
    ).length;
  // Pairing 10,000 samples is ~0.7 ms of the run page's event loop: kept, like the samples it reads.
  // The records are read afresh, like the candidate counts: a step's start moves no revision of the run.
  const [counts, pairs, lineage] = await Promise.all([
    kept ? kept.pipelineProgress() : store.sweet.progress(run.id),
    kept
      ? kept.derived(`pairable ${run.benchmark}`, () => pairable(kept.samples()))
      : pairable(store.sweet.samples(run.id)),
    loadLineage(store, run.id),
  ]);
  return pipelineView({ ...counts, pairable: pairs, benchmark: run.benchmark }, run.name, lineage);
}

/**
 * A step's failure in words a person can act on. Servers without log-probs (Ollama's and many
 * gateways' OpenAI endpoints, for one) answer in a shape the client refuses field by field; say
 * what that means for the step instead.
 */
export function explainStepError(step: PipelineStep, message: string): string {
  // The client's words for it: a field refused by its schema, or an answer that came without them.
  const noLogprobs =
    /log-?probs?/i.test(message) &&
    /(expected|invalid|received|required|without|is null|have no log-prob)/i.test(message);
  if (noLogprobs && step === "candidates") {
    return `this server returns no log-probs for sampled text; candidates need a server that does, e.g. vLLM (it answered: ${message})`;
  }
  if (noLogprobs && step === "rank") {
    return `this server returns no log-probs for prompt tokens (completions with echo); ranking needs a critic server that does, e.g. vLLM (it answered: ${message})`;
  }
  return message;
}
