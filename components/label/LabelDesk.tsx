"use client";

import { useCallback, useMemo, useRef, useState } from "react";
import { answerProblem, describeAnswer, type CriterionSide, type LabelSchema } from "@/lib/label/schema";
import { atQuota } from "@/lib/label/pace";
import type { DeskAnswer, Progress } from "./desk-api";
import type { PassKind } from "./desk-actions";
import { DeskToolbar } from "./DeskToolbar";
import { GoldFeedback } from "./GoldFeedback";
import { LabelHistory } from "./LabelHistory";
import { PairSides } from "./PairSides";
import { useCommentDraft } from "./useCommentDraft";
import { useDesk } from "./useDesk";
import { useDeskKeys } from "./useDeskKeys";
import { useReopen, type Reopened } from "./useReopen";

/**
 * The labelling desk. It holds the pair on screen and the one after it, so a key press only
 * waits for the label to be stored (useDesk). An earlier label reopened from "My labels" takes the
 * screen until it is changed or Esc is pressed (useReopen); the comment box keeps its draft per
 * pair across reloads (useCommentDraft); an answer the queue wants a reason for waits for one.
 */
export function LabelDesk({ queueId, initial, schema }: { queueId: number; initial: Progress; schema: LabelSchema }) {
  const desk = useDesk(queueId, initial);
  const history = useReopen(queueId, desk.setMessage, desk.setProgress);
  const reopened = history.reopened;
  const onScreen = reopened?.pair ?? desk.current;
  const draft = useCommentDraft(queueId, onScreen?.itemId ?? null, reopened?.label.comment ?? "");
  const [criteria, setCriteria] = useState<Record<string, CriterionSide>>({});
  const [pending, setPending] = useState<DeskAnswer | null>(null);
  const commentRef = useRef<HTMLInputElement>(null);

  // A reopened label shows what it said: its criteria (and its comment, unless a draft is kept). Set while
  // rendering, React's way for state that follows a prop.
  const [criteriaOf, setCriteriaOf] = useState(reopened);
  if (criteriaOf !== reopened) {
    setCriteriaOf(reopened);
    setCriteria((reopened?.label.criteria as Record<string, CriterionSide> | null) ?? {});
  }

  const answer = useCallback(
    async (given: DeskAnswer) => {
      const full: DeskAnswer = { ...given, ...(Object.keys(criteria).length ? { criteria } : {}) };
      const comment = draft.comment.trim();
      const problem = answerProblem(schema, { ...full, comment });
      if (problem?.startsWith("comment:")) {
        setPending(full);
        desk.setMessage(
          `A reason is needed for "${describeAnswer(full)}": write it in the comment box, then press Enter.`,
        );
        commentRef.current?.focus();
        return;
      }
      setPending(null);
      const itemId = reopened
        ? (await history.save(full, comment))
          ? reopened.pair.itemId
          : null
        : await desk.submit(full, comment);
      if (itemId === null) return;
      draft.clear(itemId);
      setCriteria({});
    },
    [criteria, draft, schema, desk, reopened, history],
  );

  const pass = useCallback(
    async (kind: PassKind) => {
      if (reopened) return;
      const itemId = await desk.pass(kind, draft.comment.trim());
      if (itemId !== null && kind !== "later") draft.clear(itemId);
    },
    [desk, draft, reopened],
  );

  const keys = useMemo(
    () => ({
      schema,
      onAnswer: (a: DeskAnswer) => void answer(a),
      onUndo: () => void (reopened ? undefined : desk.undo()),
      onPass: (kind: PassKind) => void pass(kind),
      onHistory: history.toggle,
      onComment: () => commentRef.current?.focus(),
      onEscape: () => (reopened ? history.close() : setPending(null)),
    }),
    [schema, answer, pass, desk, history, reopened],
  );
  useDeskKeys(keys);

  return (
    <div
      data-testid="label-desk"
      data-phase={desk.phase}
      data-item={desk.current?.itemId ?? ""}
      data-reopened={reopened?.pair.itemId ?? ""}
    >
      <DeskToolbar
        schema={schema}
        phase={history.saving ? "saving" : desk.phase}
        progress={desk.progress}
        elapsed={desk.elapsed}
        times={desk.times}
        message={desk.message}
        comment={draft.comment}
        commentRef={commentRef}
        onComment={draft.change}
        onCommentEnter={() => pending && void answer(pending)}
        criteria={criteria}
        onCriteria={setCriteria}
        onAnswer={(a) => void answer(a)}
        onUndo={() => void desk.undo()}
        onPass={(kind) => void pass(kind)}
        historyOpen={history.open}
        onHistory={history.toggle}
        revising={Boolean(reopened)}
      />
      {history.open ? (
        <LabelHistory
          entries={history.entries}
          onReopen={(id) => void history.reopen(id)}
          reopenedId={reopened?.pair.itemId ?? null}
        />
      ) : null}
      {reopened ? (
        <RevisingBanner reopened={reopened} onBack={history.close} />
      ) : (
        <DeskState phase={desk.phase} message={desk.message} progress={desk.progress} />
      )}
      {desk.feedback && !reopened ? <GoldFeedback feedback={desk.feedback} onNext={desk.goOn} /> : null}
      {onScreen ? <PairSides pair={onScreen} /> : null}
    </div>
  );
}

function RevisingBanner({ reopened, onBack }: { reopened: Reopened; onBack: () => void }) {
  const said = describeAnswer({ side: reopened.label.side, strength: reopened.label.strength });
  return (
    <p
      className="mb-2 rounded-md border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-900"
      data-testid="revising"
    >
      Changing your label on pair {reopened.pair.itemId}: you said <strong>{said}</strong> (version{" "}
      {reopened.label.version}). Answer again to store a new version, or{" "}
      <button type="button" className="underline" onClick={onBack}>
        go back to your pair
      </button>{" "}
      (Esc).
    </p>
  );
}

function DeskState({ phase, message, progress }: { phase: string; message: string | null; progress: Progress }) {
  if (phase === "loading") return <p className="text-stone-500">Loading the first pair…</p>;
  if (phase === "error") return <p className="text-red-700">{message}</p>;
  if (phase === "done" && atQuota(progress))
    return (
      <p
        className="rounded-lg border border-amber-300 bg-amber-50 p-6 text-center text-amber-900"
        data-testid="desk-quota"
      >
        You have labelled your quota of {progress.quota} {progress.quota === 1 ? "pair" : "pairs"} in this queue, so no
        more pairs are handed to you. Thank you! Ask the queue&apos;s lead if you should label more.
      </p>
    );
  if (phase === "done")
    return (
      <p className="rounded-lg border border-stone-200 bg-white p-6 text-center text-stone-600" data-testid="desk-done">
        Nothing left for you in this queue. Thank you!
      </p>
    );
  return null;
}
