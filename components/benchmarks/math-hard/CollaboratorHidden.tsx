import type { SimulatorSeatView } from "@/lib/play/seat-views";

/** What the simulated user is told and the agent is not: the problem (and its reference solution). */
export function MathHardCollaboratorHidden({ view }: { view: SimulatorSeatView }) {
  const problem = view.hiddenInformation;
  return (
    <div className="space-y-3">
      {problem ? (
        <div>
          <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">
            Your question (bring it up bit by bit)
          </h3>
          <pre className="whitespace-pre-wrap break-words rounded-lg bg-stone-50 p-3 text-sm text-stone-900 ring-1 ring-stone-200">
            {problem}
          </pre>
        </div>
      ) : null}
      <div>
        <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">Reference solution</h3>
        <pre className="whitespace-pre-wrap break-words rounded-lg bg-stone-50 p-3 text-sm text-stone-900 ring-1 ring-stone-200">
          {view.groundTruth}
        </pre>
      </div>
      <p className="text-xs text-stone-500">Send [[TERMINATE CHAT]] when your question has been answered.</p>
    </div>
  );
}
