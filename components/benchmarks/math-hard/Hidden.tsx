import type { RevealedHidden } from "../views";

/** The problem the simulated user holds and the reference solution the judge compares against. */
export function MathHardHidden({ hidden }: { taskId: number; hidden: RevealedHidden }) {
  return (
    <div className="mt-3 space-y-4" data-testid="hidden-information">
      <div>
        <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">Problem</h3>
        <pre className="whitespace-pre-wrap break-words rounded-lg bg-stone-50 p-4 text-sm text-stone-900 ring-1 ring-stone-200">
          {hidden.hiddenInformation ?? ""}
        </pre>
      </div>
      <div>
        <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">Reference solution</h3>
        <pre className="whitespace-pre-wrap break-words rounded-lg bg-stone-50 p-4 text-sm text-stone-900 ring-1 ring-stone-200">
          {hidden.groundTruth}
        </pre>
      </div>
    </div>
  );
}
