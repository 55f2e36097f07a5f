"use client";

import type { SimulatorSeatView } from "@/lib/play/seat-views";
import { benchmarks } from "@/lib/benchmarks";
import { benchmarkViews } from "@/components/benchmarks";
import { Transcript } from "@/components/Transcript";
import { useEpisodeStream } from "@/components/live/useEpisodeStream";
import { LiveAdvantageBadge, LiveAdvantageLine } from "@/components/replay/LiveAdvantages";
import { useLiveAdvantages, type LiveAdvantageSettings } from "@/components/replay/useLiveAdvantages";
import { MoveBox } from "./MoveBox";
import { SeatStatus } from "./SeatStatus";
import { useMove } from "./usePost";
import { InTabAgent } from "./InTabAgent";
import { useInTabAgent } from "./useInTabAgent";

/**
 * The collaborator's seat (the simulated human's role, played by a person): the hidden
 * information the simulator model would get, the dialogue with the agent's pages rendered, a reply box.
 */
export function CollaboratorSeat({
  view,
  clip = null,
  advantages,
}: {
  view: SimulatorSeatView;
  /** The CLIP folder the studio serves, for benchmarks whose seat computes similarities. */ clip?: string | null;
  /** The agent's turns' advantages as they are stored (this seat sees hidden information). */
  advantages?: LiveAdvantageSettings;
}) {
  const live = useEpisodeStream(view.episodeId, "simulator", {
    turns: view.turns,
    status: view.status,
    reward: view.reward,
  });
  const move = useMove(view.episodeId, "simulator");
  const ended = live.status === "done" || live.status === "failed";
  const myMove = live.playing && !ended && live.awaiting?.role === "simulator";
  const { DialogueExtras, Hidden } = benchmarkViews[view.benchmark].collaborator;
  // An agent generated in this tab: its turns are written here and posted as the agent's moves.
  const tabAgent = useInTabAgent(view.episodeId, view.tabAgent, live);
  const scored = useLiveAdvantages(view.episodeId, live.turns, advantages ?? null);

  return (
    <div>
      <SeatStatus
        live={live}
        mine="simulator"
        other={view.personOpposite ? "agent" : view.tabAgent ? "agent in this tab" : "agent model"}
        benchmark={view.benchmark}
        episodeId={view.episodeId}
        scoredBy={view.scoredBy}
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-label="Dialogue">
          <Transcript
            turns={live.turns}
            names={{ agent: "agent", simulator: "you (collaborator)" }}
            taskOpens={!benchmarks[view.benchmark].episode.simulatorOpens}
            turnExtra={(turn) => <LiveAdvantageBadge turn={turn} state={scored} />}
          />
          <LiveAdvantageLine state={scored} title="The agent's live advantages" />
          {view.tabAgent ? <InTabAgent agent={view.tabAgent} state={tabAgent.state} retry={tabAgent.retry} /> : null}
          {DialogueExtras ? <DialogueExtras live={live} clip={clip} /> : null}
          {ended ? null : (
            <MoveBox
              label="Your reply to the agent (answer as the person who wants this built; do not paste the hidden solution)"
              draftKey={`${view.episodeId}:simulator:message`}
              disabled={!myMove}
              sending={move.sending}
              error={move.error}
              limit={benchmarks[view.benchmark].episode.replyLimit}
              maxChars={view.messageChars}
              onSend={move.send}
            />
          )}
        </section>
        <section
          aria-label="Hidden information"
          className="space-y-3 lg:sticky lg:top-4 lg:self-start"
          data-testid="hidden-information"
        >
          <h2 className="text-sm font-medium text-amber-800">
            Hidden information: only you see it, the agent does not
          </h2>
          <Hidden view={view} />
        </section>
      </div>
    </div>
  );
}
