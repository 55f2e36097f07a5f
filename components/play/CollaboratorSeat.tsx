"use client";

import { useEffect, useState } from "react";
import type { SimulatorSeatView } from "@/lib/play/seat-views";
import { CodeEditor } from "@/components/code";
import { Transcript } from "@/components/Transcript";
import { useEpisodeStream } from "@/components/live/useEpisodeStream";
import { LiveSimilarity } from "./LiveSimilarity";
import { MoveBox } from "./MoveBox";
import { SeatStatus } from "./SeatStatus";
import { useMove } from "./usePost";
import { SIMULATOR_REPLY_LIMIT } from "@/lib/colbench/protocol";

/**
 * The collaborator's seat (the simulated human's role, played by a person): the hidden
 * information the simulator model would get, the dialogue with the agent's pages rendered, a reply box.
 */
export function CollaboratorSeat({ view, clip = null }: { view: SimulatorSeatView; /** The CLIP folder the studio serves, if any. */ clip?: string | null }) {
  const live = useEpisodeStream(view.episodeId, "simulator", { turns: view.turns, status: view.status, reward: view.reward });
  const move = useMove(view.episodeId, "simulator");
  const ended = live.status === "done" || live.status === "failed";
  const myMove = live.playing && !ended && live.awaiting?.role === "simulator";
  // The agent's latest page and the target, kept while the agent works on the next one.
  const [shown, setShown] = useState<{ agent: string | null; target: string | null }>({ agent: null, target: null });
  const agentRender = live.awaiting?.role === "simulator" ? live.awaiting.agentRenderId : undefined;
  const targetRender = live.awaiting?.role === "simulator" ? live.awaiting.targetRenderId : undefined;
  useEffect(() => {
    if (agentRender || targetRender) setShown({ agent: agentRender ?? null, target: targetRender ?? null });
  }, [agentRender, targetRender]);

  return (
    <div>
      <SeatStatus live={live} mine="simulator" other={view.personOpposite ? "agent" : "agent model"} benchmark={view.benchmark} episodeId={view.episodeId} />
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-label="Dialogue">
          <Transcript turns={live.turns} names={{ agent: "agent", simulator: "you (collaborator)" }} />
          {view.benchmark === "frontend" ? (
            <div className="mt-4">
              <LiveSimilarity clip={clip} agentRenderId={shown.agent} targetRenderId={shown.target} />
            </div>
          ) : null}
          {view.benchmark === "frontend" && live.awaiting?.role === "simulator" ? (
            <div className="mt-4 grid grid-cols-2 gap-2" data-testid="compare-renders">
              {[
                ["The agent's page", live.awaiting.agentRenderId],
                ["Your target", live.awaiting.targetRenderId],
              ].map(([label, id]) => (
                <figure key={label} className="rounded border border-stone-200 bg-white p-1">
                  <figcaption className="mb-1 text-xs text-stone-500">{label}</figcaption>
                  {id ? (
                    // eslint-disable-next-line @next/next/no-img-element
                    <img src={`/api/renders/${id}`} alt={label ?? ""} className="w-full" />
                  ) : (
                    <p className="p-4 text-center text-xs text-stone-500">The agent showed no page this turn.</p>
                  )}
                </figure>
              ))}
            </div>
          ) : null}
          {ended ? null : (
            <MoveBox
              label="Your reply to the agent (answer as the person who wants this built; do not paste the hidden solution)"
              draftKey={`${view.episodeId}:simulator:message`}
              disabled={!myMove}
              sending={move.sending}
              error={move.error}
              limit={SIMULATOR_REPLY_LIMIT[view.benchmark]}
              maxChars={view.messageChars}
              onSend={move.send}
            />
          )}
        </section>
        <section aria-label="Hidden information" className="space-y-3 lg:sticky lg:top-4 lg:self-start" data-testid="hidden-information">
          <h2 className="text-sm font-medium text-amber-800">Hidden information: only you see it, the agent does not</h2>
          {view.benchmark === "backend" ? (
            <>
              <CodeEditor value={view.groundTruth} language="python" readOnly height={300} label="Reference solution (read-only)" />
              <table className="w-full overflow-hidden rounded-lg border border-stone-200 bg-white text-sm">
                <caption className="py-1 text-left text-xs text-stone-500">Hidden tests ({view.testCases?.length ?? 0})</caption>
                <tbody className="divide-y divide-stone-100">
                  {(view.testCases ?? []).map((t) => (
                    <tr key={t.name}>
                      <td className="px-3 py-1 font-mono text-xs text-stone-800">{t.expression}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : (
            <figure className="rounded-lg border border-stone-200 bg-white p-1">
              <figcaption className="mb-1 text-xs text-stone-500">Target page</figcaption>
              <iframe title="Target page" src={`/api/tasks/${view.taskId}/preview`} sandbox="" className="h-[32rem] w-full" />
            </figure>
          )}
        </section>
      </div>
    </div>
  );
}
