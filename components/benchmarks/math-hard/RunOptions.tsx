const field = "rounded-md border border-stone-300 bg-white px-2.5 py-1.5 text-sm";
const label = "flex flex-col gap-1 text-xs text-stone-600";

/** A math-hard run's own option: the model server that judges each conversation (CollabLLM's accuracy is an LLM judge). */
export function MathHardRunOptions() {
  return (
    <label className={`${label} sm:col-span-2`}>
      Judge: the model server that rates each conversation&apos;s answer against the reference (URL#MODEL)
      <input
        name="judge"
        required
        placeholder="http://localhost:8000/v1#meta-llama/Llama-3.1-70B-Instruct"
        className={`${field} font-mono`}
        data-testid="judge"
      />
    </label>
  );
}
