import type { PairView } from "@/lib/label/views";

/** A pair's hidden information, when its queue shows it: the reference solution. */
export function MathHardPairHidden({ hidden }: { hidden: NonNullable<PairView["hidden"]> }) {
  return hidden.groundTruth ? (
    <pre className="mt-2 whitespace-pre-wrap break-words rounded bg-stone-50 p-3 text-xs text-stone-900 ring-1 ring-stone-200">
      {hidden.groundTruth}
    </pre>
  ) : null;
}
