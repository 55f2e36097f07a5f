import type { PairView } from "@/lib/label/views";

/** A pair's hidden information, when its queue shows it: the target page's render. */
export function FrontendPairHidden({ hidden }: { hidden: NonNullable<PairView["hidden"]> }) {
  return hidden.targetRender ? (
    // eslint-disable-next-line @next/next/no-img-element
    <img src={`/api/renders/${hidden.targetRender}`} alt="Target page" className="mt-2 max-h-96 rounded border" />
  ) : null;
}
