import { benchmarkOf, type Benchmark } from "../benchmarks";
import { RENDER_ID, type LabelHidden, type LabelSide, type LabelTest } from "../benchmarks/label";
import type { ItemContent, ItemEpisode, ItemTurn } from "../store/queues";
import { differingSpan } from "./differ";

// What the labelling page is sent for one pair, built from an allow-list of fields (as the agent
// seat's view is): the task as the agent saw it, each side's dialogue as the agent saw it, its
// final answer and how it scored. Never a run or model name, the rule's or critic's pick, a
// gold answer, or which side is "a". Hidden information (reference, tests, target page) only
// when the queue shows it to this person. What of a score and of the hidden task is shown is each
// benchmark's (its module's labelSide and hidden.label).

export interface ViewTurn {
  index: number;
  role: "agent" | "simulator";
  content: string;
  html?: string | null;
  renderId?: string | null;
}

export type ViewTest = LabelTest;

export interface ViewSide extends LabelSide {
  turns: ViewTurn[];
  answer: string | null;
  failed?: string;
}

export interface PairView {
  itemId: number;
  kind: "trajectory" | "turn";
  benchmark: Benchmark;
  problemDescription: string;
  hidden?: LabelHidden;
  /** The queue hides automatic scores, so the page can say why there are none. */
  scoresHidden?: true;
  left?: ViewSide;
  right?: ViewSide;
  /** Trajectory pairs: where the two final answers part (the left's and right's common start and end). */
  answerSpan?: { prefix: number; suffix: number };
  turn?: { index: number; context: ViewTurn[]; left: string; right: string; span: { prefix: number; suffix: number } };
}

function turnView(turn: ItemTurn): ViewTurn {
  const view: ViewTurn = { index: turn.index, role: turn.role, content: turn.content };
  if (turn.role === "agent") {
    view.html = turn.html;
    view.renderId = turn.renderId && RENDER_ID.test(turn.renderId) ? turn.renderId : null;
  }
  return view;
}

/**
 * What of a benchmark's side is no automatic score: the answer's own render (a page is judged by
 * looking at it). Kept as an allow-list, so a score a benchmark adds later stays out of a queue
 * that hides scores until someone decides it is not one.
 */
function unscored(side: LabelSide): LabelSide {
  return side.render !== undefined ? { render: side.render } : {};
}

function sideView(benchmark: Benchmark, episode: ItemEpisode, options: ViewOptions): ViewSide {
  const side: ViewSide = { turns: episode.turns.map(turnView), answer: episode.answer };
  if ((episode.details as { error?: string } | null)?.error) side.failed = "this episode failed before it was scored";
  const scored = benchmarkOf(benchmark).labelSide(episode.details, options.hidden);
  return { ...side, ...(options.hidesScores ? unscored(scored) : scored) };
}

export interface ViewOptions {
  /** Which of the pair's sides this person sees on the left. */
  leftIsA: boolean;
  /** The queue shows hidden information to this person (access/policy.ts: queueShowsHidden). */
  hidden: boolean;
  /** The queue hides automatic scores: they would anchor the judgement it asks for. */
  hidesScores: boolean;
}

export function pairView(content: ItemContent, options: ViewOptions): PairView {
  const view: PairView = {
    itemId: content.id,
    kind: content.kind,
    benchmark: content.benchmark,
    problemDescription: content.task.problemDescription,
  };
  if (options.hidesScores) view.scoresHidden = true;
  const order = <T>(a: T, b: T): [T, T] => (options.leftIsA ? [a, b] : [b, a]);
  if (content.episodes) {
    [view.left, view.right] = order(
      sideView(content.benchmark, content.episodes.a, options),
      sideView(content.benchmark, content.episodes.b, options),
    );
    view.answerSpan = differingSpan(view.left.answer ?? "", view.right.answer ?? "");
  }
  if (content.turn) {
    const [left, right] = order(content.turn.a, content.turn.b);
    view.turn = {
      index: content.turn.index,
      context: content.turn.context.map(turnView),
      left,
      right,
      span: differingSpan(left, right),
    };
  }
  if (options.hidden)
    view.hidden = benchmarkOf(content.benchmark).hidden.label(content.task, content.episodes?.a.details);
  return view;
}
