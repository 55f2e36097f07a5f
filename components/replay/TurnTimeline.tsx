"use client";

import { useMemo } from "react";
import { useProposalSteps } from "./useProposalSteps";
import { benchmarks, type Benchmark } from "@/lib/benchmarks";
import type { SeatTurn } from "@/lib/play/seat-turns";
import { CodeDiff } from "@/components/code";
import { Transcript, type SpeakerNames } from "@/components/Transcript";
import type { RankedCandidate } from "@/lib/store/sweet";
import { benchmarkViews } from "@/components/benchmarks";
import type { BrowserSimilarity } from "@/components/benchmarks/views";

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

interface Proposal {
  index: number;
  code: string;
  renderId: string | null;
}

/**
 * Replay of a finished episode: the dialogue beside the agent's code (or page) at the selected
 * turn, diffed against its previous proposal. "[" and "]" (or ↑/↓) step through the agent's turns.
 */
export function TurnTimeline({
  turns,
  benchmark,
  names,
  candidates,
  similarity,
}: {
  turns: SeatTurn[];
  benchmark: Benchmark;
  names?: SpeakerNames;
  candidates?: Record<number, RankedCandidate[]>;
  /** The CLIP folder the studio serves and the target's render, for each page's similarity computed in the browser. */
  similarity?: BrowserSimilarity;
}) {
  const proposals = useMemo<Proposal[]>(
    () =>
      turns.flatMap((turn) => {
        const code = benchmarks[benchmark].proposalOf(turn);
        return code === null ? [] : [{ index: turn.index, code, renderId: turn.renderId ?? null }];
      }),
    [turns, benchmark],
  );
  const { at, step } = useProposalSteps(proposals);
  const current = proposals[at];
  const previous = at > 0 ? proposals[at - 1] : undefined;

  const answer = benchmarks[benchmark].answer;
  const { ProposalExtras, diffHeight } = benchmarkViews[benchmark].replay;
  return (
    // min-w-0: a grid item is otherwise as wide as its longest unbreakable line (a page's HTML).
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2 [&>*]:min-w-0">
      <Transcript
        turns={turns}
        names={names}
        selected={current?.index}
        candidates={candidates}
        taskOpens={!benchmarks[benchmark].episode.simulatorOpens}
      />
      <aside
        className="lg:sticky lg:top-4 lg:self-start"
        aria-label="The agent's answer turn by turn"
        data-testid="turn-code"
      >
        {current ? (
          <>
            <div className="mb-2 flex items-center justify-between gap-2 text-sm">
              <button
                type="button"
                onClick={() => step(-1)}
                disabled={at === 0}
                aria-keyshortcuts="["
                className="rounded-md border border-stone-300 bg-white px-2 py-1 disabled:opacity-40"
              >
                ↑ earlier
              </button>
              <span className="text-stone-600" data-testid="turn-code-title">
                {capitalized(answer.noun)} at turn {current.index} ({at + 1} of {proposals.length})
                {previous ? <> · diff against turn {previous.index}</> : <> · first proposal</>}
              </span>
              <button
                type="button"
                onClick={() => step(1)}
                disabled={at === proposals.length - 1}
                aria-keyshortcuts="]"
                className="rounded-md border border-stone-300 bg-white px-2 py-1 disabled:opacity-40"
              >
                later ↓
              </button>
            </div>
            {ProposalExtras ? (
              <ProposalExtras index={current.index} renderId={current.renderId} similarity={similarity} />
            ) : null}
            <CodeDiff
              original={previous?.code ?? ""}
              modified={current.code}
              language={answer.language}
              height={diffHeight}
              label={`Changes at turn ${current.index}`}
            />
          </>
        ) : (
          <p className="rounded-lg border border-dashed border-stone-300 p-6 text-center text-sm text-stone-500">
            The agent showed no {answer.noun} in this episode.
          </p>
        )}
      </aside>
    </div>
  );
}
