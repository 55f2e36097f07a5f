import type { ItemContent, ItemEpisode, ItemTurn } from "../store/queues";
import { differingSpan } from "./differ";

// What the labelling page is sent for one pair, built from an allow-list of fields (as the agent
// seat's view is): the task as the agent saw it, each side's dialogue as the agent saw it, its
// final answer and how it scored. Never a run or model name, the rule's or critic's pick, a
// gold answer, or which side is "a". Hidden information (reference, tests, target page) only
// when the queue shows it to this person.

export interface ViewTurn {
  index: number;
  role: "agent" | "simulator";
  content: string;
  html?: string | null;
  renderId?: string | null;
}

export interface ViewTest {
  name: string;
  passed: boolean;
  /** Only with hidden information: the test itself and what it got. */
  expression?: string;
  reason?: string;
  expected?: string;
  actual?: string;
}

export interface ViewSide {
  turns: ViewTurn[];
  answer: string | null;
  /** Backend: per-test results. */
  tests?: ViewTest[];
  /** Frontend: the render of the final page. */
  render?: string | null;
  failed?: string;
}

export interface PairView {
  itemId: number;
  kind: "trajectory" | "turn";
  benchmark: "backend" | "frontend";
  problemDescription: string;
  hidden?: { groundTruth?: string; tests?: string[]; targetRender?: string | null };
  left?: ViewSide;
  right?: ViewSide;
  turn?: { index: number; context: ViewTurn[]; left: string; right: string; span: { prefix: number; suffix: number } };
}

const RENDER = /^[0-9a-f]{64}$/;

function turnView(turn: ItemTurn): ViewTurn {
  const view: ViewTurn = { index: turn.index, role: turn.role, content: turn.content };
  if (turn.role === "agent") {
    view.html = turn.html;
    view.renderId = turn.renderId && RENDER.test(turn.renderId) ? turn.renderId : null;
  }
  return view;
}

interface Details {
  tests?: Array<{ name?: string; expression?: string; passed?: boolean; reason?: string; expected?: string; actual?: string }>;
  answerRender?: string;
  targetRender?: string;
  error?: string;
}

function sideView(benchmark: "backend" | "frontend", episode: ItemEpisode, hidden: boolean): ViewSide {
  const d = (episode.details ?? {}) as Details;
  const side: ViewSide = { turns: episode.turns.map(turnView), answer: episode.answer };
  if (d.error) side.failed = "this episode failed before it was scored";
  if (benchmark === "backend") {
    side.tests = (d.tests ?? []).map((t, i) =>
      hidden
        ? { name: t.name ?? `test ${i + 1}`, passed: Boolean(t.passed), expression: t.expression, reason: t.reason, expected: t.expected, actual: t.actual }
        : { name: `test ${i + 1}`, passed: Boolean(t.passed) },
    );
  } else {
    side.render = d.answerRender && RENDER.test(d.answerRender) ? d.answerRender : null;
  }
  return side;
}

export function pairView(content: ItemContent, options: { leftIsA: boolean; hidden: boolean }): PairView {
  const view: PairView = { itemId: content.id, kind: content.kind, benchmark: content.benchmark, problemDescription: content.task.problemDescription };
  const order = <T>(a: T, b: T): [T, T] => (options.leftIsA ? [a, b] : [b, a]);
  if (content.episodes) {
    [view.left, view.right] = order(sideView(content.benchmark, content.episodes.a, options.hidden), sideView(content.benchmark, content.episodes.b, options.hidden));
  }
  if (content.turn) {
    const [left, right] = order(content.turn.a, content.turn.b);
    view.turn = { index: content.turn.index, context: content.turn.context.map(turnView), left, right, span: differingSpan(left, right) };
  }
  if (options.hidden) {
    view.hidden = { groundTruth: content.task.groundTruth, tests: content.task.testCases?.map((t) => t.expression) };
    if (content.benchmark === "frontend") {
      const target = ((content.episodes?.a.details ?? {}) as Details).targetRender;
      view.hidden = { targetRender: target && RENDER.test(target) ? target : null, groundTruth: content.task.groundTruth };
    }
  }
  return view;
}
