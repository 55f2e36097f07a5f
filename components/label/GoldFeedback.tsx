"use client";

import { describeAnswer } from "@/lib/label/schema";
import type { GoldFeedback as Feedback } from "./desk-api";

/**
 * A training queue's word after a gold pair's label is stored: whether it matched the known answer,
 * and why that is the answer. The labelled pair stays on screen beneath it until the person goes on
 * (the button has the focus, so Enter goes on).
 */
export function GoldFeedback({ feedback, onNext }: { feedback: Feedback; onNext: () => void }) {
  const tone = feedback.matched
    ? "border-emerald-300 bg-emerald-50 text-emerald-950"
    : "border-amber-300 bg-amber-50 text-amber-950";
  return (
    <section
      className={`mb-3 rounded-lg border px-4 py-3 text-sm ${tone}`}
      data-testid="gold-feedback"
      data-matched={feedback.matched ? "yes" : "no"}
      aria-live="polite"
    >
      <p className="font-medium">
        {feedback.matched
          ? `Right: this was a gold pair, and its known answer is yours (${describeAnswer({ side: feedback.answer })}).`
          : `Not this time: this was a gold pair. You said ${describeAnswer({ side: feedback.yours })}; its known answer is ${describeAnswer({ side: feedback.answer })}.`}
      </p>
      {feedback.reason ? (
        <p className="mt-1" data-testid="gold-reason">
          Why: {feedback.reason}
        </p>
      ) : null}
      <p className="mt-1 text-xs opacity-80">
        Your label is stored as you gave it and counts toward your gold accuracy.
      </p>
      <button
        type="button"
        // The person's next move is to go on: Enter does it.
        autoFocus
        onClick={onNext}
        className="mt-2 rounded-md bg-stone-800 px-3 py-1.5 text-sm font-medium text-white hover:bg-stone-900"
        data-testid="gold-next"
      >
        Next pair (Enter)
      </button>
    </section>
  );
}
