"use client";

import { useRef, useState, type RefObject } from "react";
import type { AgentSeatView } from "@/lib/play/seat-views";
import { benchmarks } from "@/lib/benchmarks";
import { benchmarkViews } from "@/components/benchmarks";
import { CodeEditor } from "@/components/code";
import { Transcript } from "@/components/Transcript";
import { useEpisodeStream } from "@/components/live/useEpisodeStream";
import { LiveAdvantageBadge, LiveAdvantageLine } from "@/components/replay/LiveAdvantages";
import { useLiveAdvantages, type LiveAdvantageSettings } from "@/components/replay/useLiveAdvantages";
import { MoveBox } from "./MoveBox";
import { SeatStatus } from "./SeatStatus";
import { useMove } from "./usePost";
import { useDraft } from "./useDraft";

/**
 * The agent's seat: the dialogue, a message box, and an editor for the code or page. The page
 * only ever receives the task's description and the dialogue (see lib/play/seat-views.ts).
 */
export function AgentSeat({
  view,
  coach,
}: {
  view: AgentSeatView;
  /** Coach mode: the critic's judgement of each turn once it is sent, computed by the studio (never in this tab). */
  coach?: LiveAdvantageSettings;
}) {
  const live = useEpisodeStream(view.episodeId, "agent", {
    turns: view.turns,
    status: view.status,
    reward: view.reward,
  });
  const move = useMove(view.episodeId, "agent");
  const scored = useLiveAdvantages(view.episodeId, live.turns, coach ?? null);
  // The editor starts from the task's stated signature (or an empty page) and keeps the person's work across reloads.
  const editor = useDraft(`${view.episodeId}:agent:editor`, view.starter);
  const code = editor.value;
  const confirm = useRef<HTMLDialogElement>(null);
  const views = benchmarkViews[view.benchmark].agent;
  const answerKind = benchmarks[view.benchmark].answer;
  const [attach, setAttach] = useState(views.attachByDefault);
  const ended = live.status === "done" || live.status === "failed";
  const myMove = live.playing && !ended && live.awaiting?.role === "agent";
  const lastTurn = (live.awaiting?.agentTurn ?? 0) >= 9;

  const withCode = (message: string) => {
    if (!attach) return message;
    return views.attach(message, code);
  };
  const answer = views.answer(code);

  return (
    <div>
      <SeatStatus
        live={live}
        mine="agent"
        other={view.personOpposite ? "collaborator" : "simulated collaborator"}
        benchmark={view.benchmark}
        episodeId={view.episodeId}
        scoredBy={view.scoredBy}
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-label="Dialogue">
          <Transcript
            turns={live.turns}
            names={{ agent: "you (agent)", simulator: "collaborator" }}
            taskOpens={!benchmarks[view.benchmark].episode.simulatorOpens}
            turnExtra={(turn) => <LiveAdvantageBadge turn={turn} state={scored} />}
          />
          <LiveAdvantageLine state={scored} title="Coach: the critic's judgement of your turns" />
          {ended ? null : (
            <MoveBox
              label={
                lastTurn
                  ? "Your last turn: whatever you send now is your final answer"
                  : "Message to the collaborator (ask a question, or show a draft)"
              }
              draftKey={`${view.episodeId}:agent:message`}
              disabled={!myMove}
              sending={move.sending}
              error={move.error}
              maxChars={view.messageChars}
              measure={(text) => [...withCode(text)].length}
              onSend={(text) => move.send(withCode(text))}
            >
              <>
                <label className="flex items-center gap-1 text-sm text-stone-600">
                  <input type="checkbox" checked={attach} onChange={(e) => setAttach(e.target.checked)} />
                  attach the editor&apos;s {answerKind.noun}
                </label>
                <button
                  type="button"
                  disabled={!myMove || move.sending}
                  onClick={() => confirm.current?.showModal()}
                  className="ml-auto rounded-md border border-teal-700 px-3 py-1.5 text-sm font-medium text-teal-800 hover:bg-teal-50 disabled:opacity-50"
                >
                  Submit final answer…
                </button>
              </>
            </MoveBox>
          )}
          <FinalAnswerDialog
            dialogRef={confirm}
            answer={answer}
            maxChars={view.messageChars}
            canSend={myMove && !move.sending}
            onSubmit={async () => {
              if (await move.send(answer)) {
                confirm.current?.close();
                editor.clear();
              }
            }}
          />
        </section>
        <section aria-label="Your work" className="space-y-4 lg:sticky lg:top-4 lg:self-start">
          {editor.restored ? (
            <p className="text-xs text-stone-500" data-testid="editor-restored">
              Your draft from this browser was restored.
            </p>
          ) : null}
          <CodeEditor
            value={code}
            onChange={editor.set}
            language={answerKind.language}
            height={360}
            label={views.editorLabel}
          />
          <views.Workbench code={code} turns={live.turns} />
        </section>
      </div>
    </div>
  );
}

/** Asks before the final answer is sent: shows exactly what will be sent, and whether it is over a move's limit. */
function FinalAnswerDialog({
  dialogRef,
  answer,
  maxChars,
  canSend,
  onSubmit,
}: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  answer: string;
  maxChars: number;
  canSend: boolean;
  onSubmit: () => Promise<void>;
}) {
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby="final-title"
      className="m-auto w-full max-w-2xl rounded-lg p-6 shadow-xl backdrop:bg-stone-900/40"
    >
      <h2 id="final-title" className="text-lg font-semibold text-stone-900">
        Submit this as your final answer?
      </h2>
      <p className="mt-1 text-sm text-stone-600">
        The episode ends and the answer is scored. This is what will be sent:
      </p>
      <pre
        className="mt-3 max-h-80 overflow-auto whitespace-pre-wrap break-words rounded bg-stone-100 p-3 font-mono text-xs text-stone-800"
        data-testid="final-answer-preview"
      >
        {answer}
      </pre>
      {[...answer].length > maxChars ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          It is over the limit of {maxChars.toLocaleString("en")} characters a move may hold.
        </p>
      ) : null}
      <div className="mt-5 flex justify-end gap-2">
        <button
          type="button"
          className="rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm hover:bg-stone-100"
          onClick={() => dialogRef.current?.close()}
        >
          Keep working
        </button>
        <button
          type="button"
          disabled={!canSend || [...answer].length > maxChars}
          onClick={() => void onSubmit()}
          className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
        >
          Submit final answer
        </button>
      </div>
    </dialog>
  );
}
