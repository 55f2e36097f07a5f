"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import type { PipelineView, StepState, StepView } from "@/lib/sweet/pipeline-view";
import { stepWaitLine } from "@/lib/sweet/step-wait";
import { describeLineage, formDefaults, type StepFormDefaults, type StepLineage } from "@/lib/sweet/lineage";
import type { RunEvent } from "@/lib/events";

/** A step's event as the run's stream sends it. */
type StepEvent = Omit<Extract<RunEvent, { type: "pipeline" }>, "type" | "runId">;

export type PanelData = PipelineView & { last: StepEvent | null };

const LABELS: Record<StepEvent["step"], string> = {
  pairs: "Trajectory pairs",
  candidates: "Candidates",
  rank: "Ranking",
  "turn-pairs": "Turn pairs",
};
const STATE_WORDS: Record<StepState, string> = {
  done: "done",
  partly: "partly done",
  ready: "ready",
  blocked: "nothing to work on yet",
};
const STATE_LOOK: Record<StepState, string> = {
  done: "bg-teal-50 text-teal-800 ring-teal-200",
  partly: "bg-amber-50 text-amber-800 ring-amber-200",
  ready: "bg-sky-50 text-sky-800 ring-sky-200",
  blocked: "bg-stone-100 text-stone-600 ring-stone-200",
};
const field = "rounded-md border border-stone-300 bg-white px-2 py-1 text-sm";
const button = "rounded-md bg-teal-700 px-3 py-1 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50";
const label = "flex flex-col gap-0.5 text-xs text-stone-600";

/**
 * SWEET-RL's steps on this run's data as a pipeline: each step's state and counts (read from the
 * stored rows, so they survive reloads), what it works on, which step is next and why a step cannot
 * run yet; the step in flight live from the run's snapshot stream; the training files with what they hold.
 * A stopped step continues where it stopped. Each step says what made its output (its recorded starts:
 * servers, models, template, settings), and its form starts from the latest of them, else from the
 * published scripts' defaults.
 */
export function PipelinePanel({ runId, view }: { runId: number; view: PanelData }) {
  // The run page's snapshot brings the counts and the latest step's news (lib/runs/snapshot.ts).
  const status = view.last;
  const [error, setError] = useState<string | null>(null);

  const post = async (path: string, body?: unknown) => {
    setError(null);
    const response = await fetch(`/api/runs/${runId}/${path}`, {
      method: "POST",
      ...(body ? { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) } : {}),
    });
    if (!response.ok)
      setError(((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${response.status}`);
  };
  const start = (step: StepEvent["step"]) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => (form.get(name) as string | null)?.trim() || undefined;
    // An unticked box is absent from the form: the steps that ask say false then, not "the default".
    const asksGroundTruth = step === "pairs" || step === "rank";
    void post("pipeline", {
      step,
      server: value("server"),
      n: value("n"),
      groundTruth: asksGroundTruth ? form.get("groundTruth") === "on" : undefined,
      pairsPerState: value("pairsPerState"),
      seed: value("seed"),
      includeOwn: step === "turn-pairs" ? value("pool") === "samples+own" : undefined,
      order: value("order"),
    });
  };
  const defaults = formDefaults(view.lineage);
  const running = status?.state === "running";
  const next = view.steps.find((s) => s.step === view.next);

  return (
    <section
      className="mb-6 rounded-lg border border-stone-200 bg-white p-4 text-sm"
      data-testid="pipeline"
      aria-labelledby="pipeline-title"
    >
      <h2 id="pipeline-title" className="mb-1 font-medium text-stone-800">
        Training data (SWEET-RL)
      </h2>
      <NextStep view={view} next={next} />
      <LatestStep status={status} running={running} onStop={() => void post("pipeline/stop")} />
      <ol className="grid gap-3">
        {view.steps.map((s) => (
          <StepCard
            key={s.step}
            step={s}
            isNext={s.step === view.next}
            lineage={view.lineage[s.step]}
            onSubmit={start(s.step)}
          >
            <StepFields step={s.step} running={running} defaults={defaults} />
          </StepCard>
        ))}
      </ol>
      {error ? (
        <p role="alert" className="mt-2 text-red-700">
          {error}
        </p>
      ) : null}
      <TrainingFiles runId={runId} exports={view.exports} />
    </section>
  );
}

/** What the panel says comes next: the next step, that all are done, or why nothing can run. */
function NextStep({ view, next }: { view: PanelData; next: StepView | undefined }) {
  return (
    <p className="mb-3 text-stone-700" data-testid="pipeline-next">
      {next ? (
        <>
          Next: step {next.number}, {next.title.toLowerCase()}.
        </>
      ) : view.steps.every((s) => s.state === "done") ? (
        "Every step is done: the training files below are ready."
      ) : (
        `Nothing can run yet: ${view.steps[0]!.why ?? view.steps.find((s) => s.why)?.why ?? "see the steps below"}.`
      )}
    </p>
  );
}

// A step that threw, whether it was refused before any work (bad input, a server without log-probs) or failed
// along the way, did not finish: the error beside it says which; "crashed" said neither.
const LATEST_WORDS: Record<string, string> = {
  running: "running",
  finished: "finished",
  stopped: "stopped",
  crashed: "did not finish",
};

/** The latest step's news from the run's stream: its state and counts, an error, the server it waits for, Stop. */
function LatestStep({ status, running, onStop }: { status: StepEvent | null; running: boolean; onStop: () => void }) {
  return (
    <div
      className="mb-3 text-stone-700"
      aria-live="polite"
      data-testid="pipeline-status"
      data-state={status?.state ?? "idle"}
    >
      {status ? (
        <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span>
            Latest: {LABELS[status.step]}: {LATEST_WORDS[status.state] ?? status.state}
            {status.total ? ` · ${status.done}/${status.total}` : ""}
            {status.summary
              ? ` · ${Object.entries(status.summary)
                  .map(([k, v]) => `${k} ${v}`)
                  .join(", ")}`
              : ""}
          </span>
          {status.error ? (
            <span className="text-red-700" data-testid="pipeline-error">
              {status.error}
            </span>
          ) : null}
          {running && status.waiting ? (
            <span className="text-amber-800" data-testid="pipeline-waiting">
              Waiting: {stepWaitLine(status.step, status.waiting)}.
            </span>
          ) : null}
          {running && status.total ? <progress max={status.total} value={status.done} /> : null}
          {running ? (
            <button type="button" className="rounded-md px-2 py-0.5 ring-1 ring-stone-300" onClick={onStop}>
              Stop
            </button>
          ) : null}
        </span>
      ) : (
        "No step has run in this studio since it started; the counts below are what the steps stored."
      )}
    </div>
  );
}

/** One step: its number, title and state, what it made and works on, why it cannot run, and its form. */
function StepCard({
  step: s,
  isNext,
  lineage,
  onSubmit,
  children,
}: {
  step: StepView;
  isNext: boolean;
  lineage: StepLineage[];
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  return (
    <li
      className={`rounded-md border p-3 ${isNext ? "border-sky-300" : "border-stone-200"}`}
      data-testid={`step-${s.step}`}
      data-state={s.state}
    >
      <div className="flex flex-wrap items-baseline gap-2">
        <span className="font-medium text-stone-800">
          {s.number}. {s.title}
        </span>
        <span className={`rounded px-1.5 py-0.5 text-xs ring-1 ring-inset ${STATE_LOOK[s.state]}`}>
          {STATE_WORDS[s.state]}
        </span>
        {isNext ? <span className="text-xs font-medium text-sky-800">next</span> : null}
      </div>
      <p className="mt-1 text-stone-700" data-testid="step-made">
        Made: {s.made}
      </p>
      <p className="text-stone-500" data-testid="step-input">
        Works on: {s.input}
      </p>
      <StepLineageLine lineage={lineage} />
      {s.why ? (
        <p className="mt-1 text-amber-800" data-testid="step-why">
          {s.why}
        </p>
      ) : null}
      <form onSubmit={onSubmit} className="mt-2 flex flex-wrap items-end gap-2" aria-label={s.title}>
        <fieldset disabled={s.state === "blocked"} className="contents">
          {children}
        </fieldset>
      </form>
    </li>
  );
}

/** What made the step's output: its latest start in full, earlier ones folded. */
function StepLineageLine({ lineage }: { lineage: StepLineage[] }) {
  const [latest, ...earlier] = lineage;
  if (!latest) return null;
  return (
    <div className="mt-1 text-xs text-stone-600" data-testid="step-lineage" data-id={latest.id}>
      <p className="break-words">
        <span className="font-medium text-stone-700">Made by:</span> {describeLineage(latest).join(" · ")}
      </p>
      {earlier.length ? (
        <details>
          <summary className="cursor-pointer text-stone-500">
            {earlier.length} earlier start{earlier.length === 1 ? "" : "s"}
          </summary>
          <ul className="ml-4 list-disc">
            {earlier.map((l) => (
              <li key={l.id} className="break-words">
                {describeLineage(l).join(" · ")}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

/** The fields each step's form asks for, started from the step's latest record, with its submit button. */
function StepFields({
  step,
  running,
  defaults,
}: {
  step: StepView["step"];
  running: boolean;
  defaults: StepFormDefaults;
}) {
  const forms: Record<StepView["step"], ReactNode> = {
    pairs: (
      <>
        <label className="flex items-center gap-1 text-xs text-stone-600">
          <input type="checkbox" name="groundTruth" defaultChecked={defaults.pairs.groundTruth} /> put the final answer
          in the critic&apos;s training text
        </label>
        <SubmitButton running={running}>Make trajectory pairs</SubmitButton>
      </>
    ),
    candidates: (
      <>
        <label className={label}>
          Policy server (URL#MODEL)
          <input
            name="server"
            required
            placeholder="http://gpu-box:8000/v1#my-policy"
            defaultValue={defaults.candidates.server}
            className={`${field} w-64 font-mono`}
          />
        </label>
        <label className={label}>
          Candidates per turn
          <input
            name="n"
            type="number"
            min={1}
            max={64}
            defaultValue={defaults.candidates.n}
            className={`${field} w-20`}
          />
        </label>
        <SubmitButton running={running}>Sample candidates</SubmitButton>
      </>
    ),
    rank: (
      <>
        <label className={label}>
          Critic server (URL#MODEL)
          <input
            name="server"
            required
            placeholder="http://gpu-box:8001/v1#my-critic"
            defaultValue={defaults.rank.server}
            className={`${field} w-64 font-mono`}
          />
        </label>
        <label className="flex items-center gap-1 text-xs text-stone-600">
          <input type="checkbox" name="groundTruth" defaultChecked={defaults.rank.groundTruth} /> show the critic the
          final answer
        </label>
        <SubmitButton running={running}>Rank candidates</SubmitButton>
      </>
    ),
    "turn-pairs": (
      <>
        <label className={label}>
          Pairs per turn
          <input
            name="pairsPerState"
            type="number"
            min={1}
            max={64}
            defaultValue={defaults["turn-pairs"].pairsPerState}
            className={`${field} w-20`}
          />
        </label>
        <label className={label}>
          Seed
          <input name="seed" type="number" defaultValue={defaults["turn-pairs"].seed} className={`${field} w-24`} />
        </label>
        <label className={label}>
          Pool
          <select name="pool" defaultValue={defaults["turn-pairs"].pool} className={field}>
            <option value="samples">the N samples (published)</option>
            <option value="samples+own">the samples and the turn&apos;s own output</option>
          </select>
        </label>
        <label className={label}>
          Order
          <select name="order" defaultValue={defaults["turn-pairs"].order} className={field}>
            <option value="task">task by task (published)</option>
            <option value="best-of-k">best-of-k blocks</option>
          </select>
        </label>
        <SubmitButton running={running}>Draw turn pairs</SubmitButton>
      </>
    ),
  };
  return forms[step];
}

/** The training files, each a download link with what it holds, or why it is empty. */
function TrainingFiles({ runId, exports }: { runId: number; exports: PanelData["exports"] }) {
  return (
    <div className="mt-3 text-stone-600">
      <p className="mb-1">Training files (JSONL):</p>
      <ul className="grid gap-1" data-testid="pipeline-exports">
        {exports.map((x) => (
          <li key={x.format} data-testid={`export-${x.format}`} data-lines={x.lines}>
            {x.empty ? (
              <span aria-disabled="true" className="text-stone-400">
                <span className="font-mono">{x.format}</span> — empty: {x.empty.panel}
              </span>
            ) : (
              <>
                <a
                  href={`/api/runs/${runId}/export?format=${x.format}`}
                  className="font-mono text-teal-700 hover:underline"
                >
                  {x.format}
                </a>{" "}
                — {x.lines} line{x.lines === 1 ? "" : "s"}: {x.holds}
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function SubmitButton({ running, children }: { running: boolean; children: ReactNode }) {
  return (
    <button type="submit" className={button} disabled={running}>
      {children}
    </button>
  );
}
