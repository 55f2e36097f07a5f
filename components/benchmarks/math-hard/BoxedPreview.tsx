import { boxedAnswer } from "@/lib/benchmarks/math-hard/boxed";
import type { SeatTurn } from "@/lib/play/seat-turns";

/** Beside the editor: the answer MATH's check would take from it (its last \boxed{…}). */
export function MathHardBoxedPreview({ code }: { code: string; turns: SeatTurn[] }) {
  const boxed = boxedAnswer(code);
  return (
    <p className="text-xs text-stone-600" data-testid="boxed-preview">
      {boxed === null ? (
        "No \\boxed{…} answer in the editor yet."
      ) : (
        <>
          Boxed answer: <code>{boxed}</code>
        </>
      )}
    </p>
  );
}
