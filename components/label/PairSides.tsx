"use client";

import { useState } from "react";
import type { PairView } from "@/lib/label/views";
import { Transcript } from "@/components/Transcript";
import { benchmarks } from "@/lib/benchmarks";
import { benchmarkViews } from "@/components/benchmarks";
import { Differing } from "./Differing";
import { SideColumn } from "./SideColumn";

// One pair as a person judges it, laid out so that both answers are on screen without scrolling
// (1280×800): the task once, in a few lines that open on a click; then A and B side by side,
// answers first; what led to them folded below.

const NAMES = { agent: "agent", simulator: "human" };

function TaskBox({ text }: { text: string }) {
  const [whole, setWhole] = useState(false);
  const long = text.length > 240 || text.split("\n").length > 2;
  return (
    <section className="mb-2 rounded-lg border border-stone-200 bg-white px-3 py-2" data-testid="pair-task">
      <h2 className="sr-only">The task (what the agent saw)</h2>
      <p className={`whitespace-pre-wrap text-sm text-stone-800 ${whole ? "" : "line-clamp-2"}`}>
        <span className="mr-2 text-xs font-medium uppercase tracking-wide text-stone-500">Task</span>
        {text}
      </p>
      {long ? (
        <button type="button" className="text-xs text-teal-700 hover:underline" onClick={() => setWhole((w) => !w)}>
          {whole ? "Show less" : "Show the whole task"}
        </button>
      ) : null}
    </section>
  );
}

function TurnPair({ pair, taskOpens }: { pair: PairView; taskOpens: boolean }) {
  const turn = pair.turn!;
  const context = taskOpens ? turn.context.filter((t) => t.index !== 0) : turn.context;
  return (
    <>
      <h2 className="mb-1 text-sm font-medium text-stone-500">
        Two candidates for the agent&apos;s turn {turn.index} (where they part is highlighted)
      </h2>
      <div className="grid grid-cols-2 gap-3">
        {(
          [
            ["A", turn.left, "side-a"],
            ["B", turn.right, "side-b"],
          ] as const
        ).map(([label, text, testId]) => (
          <section key={label} aria-label={label} className="min-w-0" data-testid={`answer-${label.toLowerCase()}`}>
            <h3 className="mb-1 text-base font-semibold">{label}</h3>
            <Differing
              text={text}
              prefix={turn.span.prefix}
              suffix={turn.span.suffix}
              testId={testId}
              className="max-h-[50vh] overflow-auto"
            />
          </section>
        ))}
      </div>
      <details className="mt-3 text-sm" data-testid="turn-context">
        <summary className="cursor-pointer text-stone-600">The dialogue so far ({context.length} turns)</summary>
        <div className="mt-2">
          <Transcript turns={context} names={NAMES} taskOpens={false} />
        </div>
      </details>
    </>
  );
}

/** One pair, side by side: A on the left, B on the right (the order this person was dealt). */
export function PairSides({ pair }: { pair: PairView }) {
  const { PairHidden } = benchmarkViews[pair.benchmark];
  // When the agent opens, its first turn is the task itself: shown once, above.
  const taskOpens = !benchmarks[pair.benchmark].episode.simulatorOpens;
  const noSpan = { prefix: 0, suffix: 0 };
  return (
    <div data-testid="pair" data-item={pair.itemId}>
      <TaskBox text={pair.problemDescription} />
      {pair.scoresHidden && pair.left ? (
        <p className="mb-1 text-xs text-stone-500" data-testid="scores-hidden">
          This queue hides the automatic scores: judge the answers themselves.
        </p>
      ) : null}
      {pair.left && pair.right ? (
        <div className="grid grid-cols-2 gap-3">
          <SideColumn
            side={pair.left}
            label="A"
            span={pair.answerSpan ?? noSpan}
            taskOpens={taskOpens}
            testId="side-a"
          />
          <SideColumn
            side={pair.right}
            label="B"
            span={pair.answerSpan ?? noSpan}
            taskOpens={taskOpens}
            testId="side-b"
          />
        </div>
      ) : null}
      {pair.turn ? <TurnPair pair={pair} taskOpens={taskOpens} /> : null}
      {pair.hidden ? (
        <details className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm" data-testid="pair-hidden">
          <summary className="cursor-pointer font-medium text-amber-900">
            Hidden information (this queue shows it)
          </summary>
          <PairHidden hidden={pair.hidden} />
        </details>
      ) : null}
    </div>
  );
}
