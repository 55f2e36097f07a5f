// The desk's sticky bar: progress, the answers, what else can be done with a pair (undo, skip,
// later, broken, history), the comment box (a reason where the queue asks for one), criteria.
import type { RefObject } from "react";
import type { CriterionSide, LabelSchema } from "@/lib/label/schema";
import { median } from "@/lib/label/agreement";
import { atQuota, roughDuration, timeLeftMs } from "@/lib/label/pace";
import type { DeskAnswer, Progress } from "./desk-api";
import type { PassKind, Phase } from "./desk-actions";
import { AnswerButtons, BUTTON } from "./AnswerButtons";
import { CriteriaPicker } from "./CriteriaPicker";

const seconds = (ms: number | null) => (ms === null ? "–" : `${(ms / 1000).toFixed(1)} s`);

function DeskProgress({ progress, elapsed, times }: { progress: Progress; elapsed: number; times: number[] }) {
  const share = progress.wanted ? progress.given / progress.wanted : 0;
  // `times`: the person's recent label times in this queue and this visit's (useDesk).
  const pace = median(times);
  const estimate = timeLeftMs({ left: progress.left, medianMs: pace });
  return (
    <>
      <div className="mb-1 flex flex-wrap items-center gap-x-6 gap-y-1 text-sm text-stone-600">
        <span>
          You: <strong data-testid="progress-mine">{progress.mine}</strong> labels
        </span>
        <span>
          Left for you: <strong data-testid="progress-left">{progress.left}</strong>{" "}
          {progress.left === 1 ? "pair" : "pairs"}
          {progress.quota !== null ? (
            <span data-testid="progress-quota" className={atQuota(progress) ? "text-amber-800" : undefined}>
              {" "}
              · quota {progress.counted ?? 0} of {progress.quota}
              {atQuota(progress) ? " reached" : ""}
            </span>
          ) : null}
          {progress.left > 0 ? (
            <span data-testid="progress-estimate">
              {" "}
              ·{" "}
              {estimate === null
                ? "time left: after your first label"
                : `about ${roughDuration(estimate)} at your pace`}
            </span>
          ) : null}
        </span>
        <span>
          Queue: <strong data-testid="progress-queue">{progress.given}</strong> of {progress.wanted} labels
        </span>
        <span>
          This pair: <span className="tabular-nums">{seconds(elapsed)}</span> · median per label{" "}
          <span data-testid="median-time">{seconds(pace)}</span>
        </span>
      </div>
      <div
        className="h-1.5 w-full overflow-hidden rounded bg-stone-200"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={progress.wanted}
        aria-valuenow={progress.given}
        aria-label="Queue progress"
      >
        <div className="h-full bg-teal-600" style={{ width: `${(share * 100).toFixed(1)}%` }} />
      </div>
    </>
  );
}

export interface ToolbarProps {
  schema: LabelSchema;
  phase: Phase;
  progress: Progress;
  elapsed: number;
  times: number[];
  message: string | null;
  comment: string;
  commentRef: RefObject<HTMLInputElement | null>;
  onComment: (text: string) => void;
  /** Enter in the comment box: the answer waiting for its reason goes. */
  onCommentEnter: () => void;
  criteria: Record<string, CriterionSide>;
  onCriteria: (value: Record<string, CriterionSide>) => void;
  onAnswer: (answer: DeskAnswer) => void;
  onUndo: () => void;
  onPass: (kind: PassKind) => void;
  historyOpen: boolean;
  onHistory: () => void;
  /** Changing an earlier label: the pass buttons do not apply. */
  revising: boolean;
}

export function DeskToolbar({ commentRef, ...p }: ToolbarProps) {
  const ready = p.phase === "ready" || p.revising;
  const plain = `${BUTTON} border-stone-300 bg-white`;
  const reasons = p.schema.reasonsFor.map((r) => r.replace("_", " "));
  return (
    <div className="sticky top-0 z-10 mb-2 border-b border-stone-200 bg-stone-50/95 py-2 backdrop-blur">
      <DeskProgress progress={p.progress} elapsed={p.elapsed} times={p.times} />
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <AnswerButtons schema={p.schema} disabled={!ready} onAnswer={p.onAnswer} />
        <span className="mx-1 h-6 w-px bg-stone-300" aria-hidden />
        <KeyButton
          label="Undo"
          shortcut="u"
          className={plain}
          disabled={p.phase === "saving" || p.phase === "loading" || p.revising}
          onClick={p.onUndo}
        />
        <KeyButton
          label="Skip"
          shortcut="s"
          className={plain}
          disabled={!ready || p.revising}
          onClick={() => p.onPass("skip")}
        />
        <KeyButton
          label="Later"
          shortcut="l"
          className={plain}
          disabled={!ready || p.revising}
          onClick={() => p.onPass("later")}
        />
        <KeyButton
          label="Broken"
          shortcut="b"
          className={plain}
          disabled={!ready || p.revising}
          onClick={() => p.onPass("broken")}
        />
        <KeyButton
          label="My labels"
          shortcut="h"
          className={plain}
          pressed={p.historyOpen}
          onClick={p.onHistory}
          testId="history-toggle"
        />
      </div>
      <input
        ref={commentRef}
        type="text"
        value={p.comment}
        onChange={(e) => p.onComment(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") (e.target as HTMLInputElement).blur();
          if (e.key === "Enter") p.onCommentEnter();
        }}
        placeholder={`Comment, or why you skip (c to write, Esc to leave)${reasons.length ? ` · a reason is needed for: ${reasons.join(", ")}` : ""}`}
        aria-label="Comment"
        maxLength={4000}
        className="mt-2 w-full rounded-md border border-stone-300 bg-white px-2 py-1.5 text-sm"
        data-testid="comment"
      />
      <CriteriaPicker names={p.schema.criteria} value={p.criteria} onChange={p.onCriteria} />
      {p.message ? (
        <p className="mt-1 text-sm text-amber-800" role="status" data-testid="desk-message">
          {p.message}
        </p>
      ) : null}
    </div>
  );
}

/** A toolbar button with its key shown beside its label and announced to assistive technology. */
function KeyButton(b: {
  label: string;
  shortcut: string;
  className: string;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
  testId?: string;
}) {
  return (
    <button
      type="button"
      className={b.className}
      disabled={b.disabled}
      aria-pressed={b.pressed}
      onClick={b.onClick}
      aria-keyshortcuts={b.shortcut}
      data-testid={b.testId}
    >
      {b.label} <kbd className="ml-1 opacity-75">{b.shortcut}</kbd>
    </button>
  );
}
