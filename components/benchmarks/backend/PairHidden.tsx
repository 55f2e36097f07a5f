import type { PairView } from "@/lib/label/views";

/** A pair's hidden information, when its queue shows it: the reference function and the tests. */
export function BackendPairHidden({ hidden }: { hidden: NonNullable<PairView["hidden"]> }) {
  return (
    <>
      {hidden.groundTruth ? (
        <pre className="mt-2 whitespace-pre-wrap break-words rounded bg-stone-900 p-3 font-mono text-xs text-stone-100">
          {hidden.groundTruth}
        </pre>
      ) : null}
      {hidden.tests?.length ? (
        <ul className="mt-2 list-disc pl-5 font-mono text-xs">
          {hidden.tests.map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
