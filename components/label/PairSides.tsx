import type { PairView, ViewSide } from "@/lib/label/views";
import { Transcript } from "@/components/Transcript";
import { EpisodeScore } from "@/components/EpisodeScore";
import { benchmarks, type Benchmark } from "@/lib/benchmarks";
import { benchmarkViews } from "@/components/benchmarks";

const NAMES = { agent: "agent", simulator: "human" };

function Side({
  side,
  label,
  benchmark,
  hidden,
  testId,
}: {
  side: ViewSide;
  label: string;
  benchmark: Benchmark;
  hidden: boolean;
  testId: string;
}) {
  const details = {
    tests: side.tests?.map((t) => ({
      name: t.name,
      expression: t.expression ?? t.name,
      passed: t.passed,
      reason: t.reason ?? "",
      expected: t.expected,
      actual: t.actual,
    })),
    answerRender: side.render ?? undefined,
    error: side.failed,
  };
  return (
    <section
      className="min-w-0 rounded-lg border border-stone-200 bg-stone-50 p-3"
      data-testid={testId}
      aria-label={label}
    >
      <h2 className="mb-2 text-lg font-semibold text-stone-900">{label}</h2>
      <Transcript turns={side.turns} names={NAMES} taskOpens={!benchmarks[benchmark].episode.simulatorOpens} />
      <EpisodeScore
        benchmark={benchmark}
        answer={side.answer}
        details={details}
        headingId={`${testId}-score`}
        targetWithheld={!hidden}
      />
    </section>
  );
}

function Differing({ text, prefix, suffix, testId }: { text: string; prefix: number; suffix: number; testId: string }) {
  const end = text.length - suffix;
  return (
    <pre
      className="whitespace-pre-wrap break-words rounded-lg border border-sky-200 bg-sky-50/50 p-3 font-mono text-sm text-stone-800"
      data-testid={testId}
    >
      <span className="text-stone-500">{text.slice(0, prefix)}</span>
      <mark className="rounded bg-amber-200 text-stone-900" data-testid="differs">
        {text.slice(prefix, Math.max(prefix, end))}
      </mark>
      <span className="text-stone-500">{text.slice(Math.max(prefix, end))}</span>
    </pre>
  );
}

/** One pair, side by side: A on the left, B on the right (the order this person was dealt). */
export function PairSides({ pair }: { pair: PairView }) {
  const hidden = Boolean(pair.hidden);
  const { PairHidden } = benchmarkViews[pair.benchmark];
  return (
    <div data-testid="pair" data-item={pair.itemId}>
      <section className="mb-4 rounded-lg border border-stone-200 bg-white p-4">
        <h2 className="mb-1 text-sm font-medium text-stone-500">The task (what the agent saw)</h2>
        <p className="whitespace-pre-wrap text-sm text-stone-800">{pair.problemDescription}</p>
      </section>
      {pair.hidden ? (
        <details className="mb-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm" data-testid="pair-hidden">
          <summary className="cursor-pointer font-medium text-amber-900">
            Hidden information (this queue shows it)
          </summary>
          <PairHidden hidden={pair.hidden} />
        </details>
      ) : null}
      {pair.scoresHidden && pair.left ? (
        <p className="mb-2 text-xs text-stone-500" data-testid="scores-hidden">
          This queue hides the automatic scores: judge the answers themselves.
        </p>
      ) : null}
      {pair.left && pair.right ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <Side side={pair.left} label="A" benchmark={pair.benchmark} hidden={hidden} testId="side-a" />
          <Side side={pair.right} label="B" benchmark={pair.benchmark} hidden={hidden} testId="side-b" />
        </div>
      ) : null}
      {pair.turn ? (
        <>
          <h2 className="mb-2 text-sm font-medium text-stone-500">The dialogue so far</h2>
          <Transcript
            turns={pair.turn.context}
            names={NAMES}
            taskOpens={!benchmarks[pair.benchmark].episode.simulatorOpens}
          />
          <h2 className="mb-2 mt-4 text-sm font-medium text-stone-500">
            Two candidates for the agent&apos;s turn {pair.turn.index} (where they part is highlighted)
          </h2>
          <div className="grid gap-4 lg:grid-cols-2">
            <section aria-label="A">
              <h3 className="mb-1 text-lg font-semibold">A</h3>
              <Differing
                text={pair.turn.left}
                prefix={pair.turn.span.prefix}
                suffix={pair.turn.span.suffix}
                testId="side-a"
              />
            </section>
            <section aria-label="B">
              <h3 className="mb-1 text-lg font-semibold">B</h3>
              <Differing
                text={pair.turn.right}
                prefix={pair.turn.span.prefix}
                suffix={pair.turn.span.suffix}
                testId="side-b"
              />
            </section>
          </div>
        </>
      ) : null}
    </div>
  );
}
