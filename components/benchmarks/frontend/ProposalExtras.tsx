import { LiveSimilarity } from "@/components/play/LiveSimilarity";
import type { BrowserSimilarity } from "../views";

/** Above a page's diff in the replay: its render (or why there is none) and its similarity to the target. */
export function FrontendProposalExtras({
  index,
  renderId,
  similarity,
}: {
  index: number;
  renderId: string | null;
  similarity?: BrowserSimilarity;
}) {
  return (
    <>
      {renderId ? (
        // eslint-disable-next-line @next/next/no-img-element
        <img
          src={`/api/renders/${renderId}`}
          alt={`Render of the page at turn ${index}`}
          className="mb-3 max-h-80 w-full rounded border border-stone-200 object-contain object-top"
        />
      ) : (
        <p className="mb-3 rounded border border-red-200 bg-red-50 p-2 text-xs text-red-800">
          This page could not be rendered: the simulator was told there was no page, and a final answer like it scores
          as a black image.
        </p>
      )}
      {similarity?.targetRenderId ? (
        <div className="mb-3">
          <LiveSimilarity
            clip={similarity.clip}
            agentRenderId={renderId}
            targetRenderId={similarity.targetRenderId}
            label={`Similarity of the page at turn ${index} to the target`}
          />
        </div>
      ) : null}
    </>
  );
}
