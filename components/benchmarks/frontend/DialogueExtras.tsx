"use client";

import { useEffect, useState } from "react";
import type { EpisodeStreamState } from "@/components/live/useEpisodeStream";
import { LiveSimilarity } from "@/components/play/LiveSimilarity";

/**
 * Under the collaborator's dialogue: the similarity of the agent's page to the target (computed in
 * this tab), and while it is the collaborator's move, both renders the simulator model would compare.
 */
export function FrontendDialogueExtras({ live, clip }: { live: EpisodeStreamState; clip: string | null }) {
  // The agent's latest page and the target, kept while the agent works on the next one.
  const [shown, setShown] = useState<{
    agent: string | null;
    target: string | null;
  }>({ agent: null, target: null });
  const agentRender = live.awaiting?.role === "simulator" ? live.awaiting.agentRenderId : undefined;
  const targetRender = live.awaiting?.role === "simulator" ? live.awaiting.targetRenderId : undefined;
  // Remembered, not derived: once the awaited move is gone the last pair must stay on screen.
  useEffect(() => {
    if (agentRender || targetRender)
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setShown({ agent: agentRender ?? null, target: targetRender ?? null });
  }, [agentRender, targetRender]);
  return (
    <>
      <div className="mt-4">
        <LiveSimilarity clip={clip} agentRenderId={shown.agent} targetRenderId={shown.target} />
      </div>
      {live.awaiting?.role === "simulator" ? (
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
    </>
  );
}
