"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { previewDocument, previewNotes } from "@/lib/colbench/offline-html";
import type { AgentSeatView } from "@/lib/play/seat-views";
import { CodeEditor } from "@/components/code";
import { Transcript } from "@/components/Transcript";
import { useEpisodeStream } from "@/components/live/useEpisodeStream";
import { MoveBox } from "./MoveBox";
import { SeatStatus } from "./SeatStatus";
import { useMove } from "./usePost";
import { usePythonScratch } from "./usePythonScratch";
import { useDraft } from "./useDraft";

const ANSWER_MARKER = "I WANT TO ANSWER:";

/** A page the benchmark will find in a message: the editor's HTML, wrapped when it lacks <html>. */
function asPage(html: string): string {
  return /<html[\s>]/i.test(html) ? html : `<html><body>${html}</body></html>`;
}

/**
 * The agent's seat: the dialogue, a message box, and an editor for the code or page. The page
 * only ever receives the task's description and the dialogue (see lib/play/views.ts).
 */
export function AgentSeat({ view }: { view: AgentSeatView }) {
  const live = useEpisodeStream(view.episodeId, "agent", { turns: view.turns, status: view.status, reward: view.reward });
  const move = useMove(view.episodeId, "agent");
  // The editor starts from the task's stated signature (or an empty page) and keeps the person's work across reloads.
  const editor = useDraft(`${view.episodeId}:agent:editor`, view.starter);
  const code = editor.value;
  const confirm = useRef<HTMLDialogElement>(null);
  const [attach, setAttach] = useState(view.benchmark === "frontend");
  const ended = live.status === "done" || live.status === "failed";
  const myMove = live.playing && !ended && live.awaiting?.role === "agent";
  const lastTurn = (live.awaiting?.agentTurn ?? 0) >= 9;

  const withCode = (message: string) => {
    if (!attach) return message;
    return view.benchmark === "backend" ? `${message}\n\n\`\`\`python\n${code.trimEnd()}\n\`\`\`` : `${message}\n\n${asPage(code)}`;
  };
  const answer = view.benchmark === "backend" ? `${ANSWER_MARKER}\n${code}` : `${ANSWER_MARKER}\n${asPage(code)}`;

  return (
    <div>
      <SeatStatus live={live} mine="agent" other={view.personOpposite ? "collaborator" : "simulated collaborator"} benchmark={view.benchmark} episodeId={view.episodeId} />
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-label="Dialogue">
          <Transcript turns={live.turns} names={{ agent: "you (agent)", simulator: "collaborator" }} />
          {ended ? null : (
            <MoveBox
              label={lastTurn ? "Your last turn: whatever you send now is your final answer" : "Message to the collaborator (ask a question, or show a draft)"}
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
                  attach the editor&apos;s {view.benchmark === "backend" ? "code" : "page"}
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
          <dialog ref={confirm} aria-labelledby="final-title" className="m-auto w-full max-w-2xl rounded-lg p-6 shadow-xl backdrop:bg-stone-900/40">
            <h2 id="final-title" className="text-lg font-semibold text-stone-900">
              Submit this as your final answer?
            </h2>
            <p className="mt-1 text-sm text-stone-600">The episode ends and the answer is scored. This is what will be sent:</p>
            <pre className="mt-3 max-h-80 overflow-auto whitespace-pre-wrap break-words rounded bg-stone-100 p-3 font-mono text-xs text-stone-800" data-testid="final-answer-preview">
              {answer}
            </pre>
            {[...answer].length > view.messageChars ? (
              <p role="alert" className="mt-2 text-sm text-red-700">
                It is over the limit of {view.messageChars.toLocaleString("en")} characters a move may hold.
              </p>
            ) : null}
            <div className="mt-5 flex justify-end gap-2">
              <button type="button" className="rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm hover:bg-stone-100" onClick={() => confirm.current?.close()}>
                Keep working
              </button>
              <button
                type="button"
                disabled={!myMove || move.sending || [...answer].length > view.messageChars}
                onClick={async () => {
                  if (await move.send(answer)) {
                    confirm.current?.close();
                    editor.clear();
                  }
                }}
                className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
              >
                Submit final answer
              </button>
            </div>
          </dialog>
        </section>
        <section aria-label="Your work" className="space-y-4 lg:sticky lg:top-4 lg:self-start">
          {editor.restored ? <p className="text-xs text-stone-500" data-testid="editor-restored">Your draft from this browser was restored.</p> : null}
          <CodeEditor value={code} onChange={editor.set} language={view.benchmark === "backend" ? "python" : "html"} height={360} label={view.benchmark === "backend" ? "Your Python function" : "Your HTML page"} />
          {view.benchmark === "backend" ? <PythonScratch code={code} /> : <HtmlPreview html={code} lastRender={[...live.turns].reverse().find((t) => t.role === "agent" && t.html)} />}
        </section>
      </div>
    </div>
  );
}

/** The person's own page in a sandboxed frame: no scripts, no requests beyond the studio's stylesheet and placeholders. */
function HtmlPreview({ html, lastRender }: { html: string; lastRender?: { index: number; renderId?: string | null } }) {
  const [shown, setShown] = useState(html);
  useEffect(() => {
    const timer = setTimeout(() => setShown(html), 300);
    return () => clearTimeout(timer);
  }, [html]);
  const doc = useMemo(() => (typeof window === "undefined" ? "" : previewDocument(shown, window.location.origin)), [shown]);
  return (
    <figure className="rounded-lg border border-stone-200 bg-white p-1">
      <figcaption className="mb-1 text-xs text-stone-500">Live preview (offline: Tailwind 2.2.19 and placeholder images from the studio)</figcaption>
      <iframe title="Preview of your page" sandbox="" srcDoc={doc} className="h-96 w-full" data-testid="html-preview" />
      <PreviewNotes notes={previewNotes(shown)} />
      {lastRender ? (
        <div className="mt-2 border-t border-stone-200 pt-2" data-testid="sent-render">
          <p className="mb-1 text-xs text-stone-500">The page you sent at turn {lastRender.index}, as the scorer&apos;s browser rendered it (what your collaborator and the score see)</p>
          {lastRender.renderId ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img src={`/api/renders/${lastRender.renderId}`} alt={`Render of your page at turn ${lastRender.index}`} className="max-h-96 w-full object-contain object-top" />
          ) : (
            <p className="text-xs text-red-700">It could not be rendered: the scorer counts it as a black image.</p>
          )}
        </div>
      ) : null}
    </figure>
  );
}

function PythonScratch({ code }: { code: string }) {
  const python = usePythonScratch();
  const [calls, setCalls] = useState("");
  const [output, setOutput] = useState<{ ok: boolean; output: string } | null>(null);
  const run = async () => setOutput(await python.run(`${code}\n${calls}`));
  return (
    <div className="rounded-lg border border-stone-200 bg-white p-3" data-testid="python-scratch">
      <label className="flex flex-col gap-1 text-xs text-stone-600">
        Scratch lines run after your code (e.g. print(solution())); Python runs in this browser tab (Pyodide), never on the server
        <textarea value={calls} onChange={(e) => setCalls(e.target.value)} rows={3} className="rounded-md border border-stone-300 px-2.5 py-1.5 font-mono text-sm" />
      </label>
      <div className="mt-2 flex items-center gap-2">
        <button type="button" onClick={() => void run()} disabled={python.state === "running"} className="rounded-md bg-stone-800 px-3 py-1.5 text-sm text-white hover:bg-stone-900 disabled:opacity-50">
          {python.state === "running" ? "Running…" : python.state === "booting" ? "Starting Python…" : "Run my code"}
        </button>
        {python.state === "running" ? (
          <button type="button" onClick={python.reset} className="rounded-md border border-stone-300 px-3 py-1.5 text-sm">
            Stop
          </button>
        ) : null}
      </div>
      {output ? (
        <pre data-testid="scratch-output" data-ok={output.ok} className={`mt-2 max-h-60 overflow-auto whitespace-pre-wrap rounded p-2 font-mono text-xs ${output.ok ? "bg-stone-100 text-stone-800" : "bg-red-50 text-red-800"}`}>
          {output.output || "(no output)"}
        </pre>
      ) : null}
    </div>
  );
}

/** Where the live preview (no scripts, offline) may differ from the page the scorer renders. */
function PreviewNotes({ notes }: { notes: string[] }) {
  if (!notes.length) return null;
  return (
    <ul className="mt-1 list-disc pl-5 text-xs text-amber-800" data-testid="preview-notes">
      {notes.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}
