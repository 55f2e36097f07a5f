// The desk's answers as buttons with their keys: A / B / tie / both bad, or on a graded queue the
// scale from A much better to B much better, with both bad last. Keys and buttons share one list.
import type { LabelSchema } from "@/lib/label/schema";
import type { DeskAnswer } from "./desk-api";

interface Choice {
  key: string;
  text: string;
  answer: DeskAnswer;
  strong: boolean;
}

const PLAIN: Choice[] = [
  { key: "1", text: "A is better", answer: { side: "left" }, strong: true },
  { key: "2", text: "B is better", answer: { side: "right" }, strong: true },
  { key: "3", text: "Tie", answer: { side: "tie" }, strong: false },
  { key: "4", text: "Both bad", answer: { side: "both_bad" }, strong: false },
];

const GRADED: Choice[] = [
  { key: "1", text: "A much better", answer: { side: "left", strength: "much" }, strong: true },
  { key: "2", text: "A slightly better", answer: { side: "left", strength: "slightly" }, strong: true },
  { key: "3", text: "Tie", answer: { side: "tie" }, strong: false },
  { key: "4", text: "B slightly better", answer: { side: "right", strength: "slightly" }, strong: true },
  { key: "5", text: "B much better", answer: { side: "right", strength: "much" }, strong: true },
  { key: "6", text: "Both bad", answer: { side: "both_bad" }, strong: false },
];

const choicesOf = (schema: LabelSchema) => (schema.graded ? GRADED : PLAIN);

/** The answer a key gives at this queue's desk, or null. */
export function answerForKey(schema: LabelSchema, key: string): DeskAnswer | null {
  return choicesOf(schema).find((c) => c.key === key)?.answer ?? null;
}

export const BUTTON = "rounded-md border px-3 py-1.5 text-sm font-medium disabled:opacity-50";

export function AnswerButtons({
  schema,
  disabled,
  onAnswer,
}: {
  schema: LabelSchema;
  disabled: boolean;
  onAnswer: (answer: DeskAnswer) => void;
}) {
  return (
    <div
      className="flex flex-wrap items-center gap-2"
      role="group"
      aria-label="Your answer"
      data-testid="answer-buttons"
    >
      {choicesOf(schema).map((c) => (
        <button
          key={c.key}
          type="button"
          className={`${BUTTON} ${c.strong ? "border-teal-700 bg-teal-700 text-white" : "border-stone-300 bg-white"}`}
          disabled={disabled}
          onClick={() => onAnswer(c.answer)}
          aria-keyshortcuts={c.key}
        >
          {c.text} <kbd className="ml-1 opacity-75">{c.key}</kbd>
        </button>
      ))}
    </div>
  );
}
