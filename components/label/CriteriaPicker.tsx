// A queue's named criteria, each judged A / tie / B beside the overall answer (optional; sent with
// the next answer, then cleared).
import type { CriterionSide } from "@/lib/label/schema";

const OPTIONS: Array<[CriterionSide, string]> = [
  ["left", "A"],
  ["tie", "="],
  ["right", "B"],
];

export function CriteriaPicker({
  names,
  value,
  onChange,
}: {
  names: string[];
  value: Record<string, CriterionSide>;
  onChange: (value: Record<string, CriterionSide>) => void;
}) {
  if (!names.length) return null;
  const set = (name: string, side: CriterionSide) => {
    const next = { ...value };
    if (next[name] === side) delete next[name];
    else next[name] = side;
    onChange(next);
  };
  return (
    <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm" data-testid="criteria">
      <span className="text-stone-500">Criteria (optional):</span>
      {names.map((name) => (
        <span key={name} className="inline-flex items-center gap-1" role="group" aria-label={name}>
          <span className="text-stone-700">{name}</span>
          {OPTIONS.map(([side, text]) => (
            <button
              key={side}
              type="button"
              aria-pressed={value[name] === side}
              onClick={() => set(name, side)}
              className={`w-7 rounded border text-xs ${value[name] === side ? "border-sky-700 bg-sky-700 text-white" : "border-stone-300 bg-white"}`}
            >
              {text}
            </button>
          ))}
        </span>
      ))}
    </div>
  );
}
