// A text with where it parts from its pair's other side highlighted (the common start and end
// dimmed): the two candidates of a turn pair, or a trajectory pair's two final answers.
export function Differing({
  text,
  prefix,
  suffix,
  testId,
  className = "",
}: {
  text: string;
  prefix: number;
  suffix: number;
  testId: string;
  className?: string;
}) {
  const end = text.length - suffix;
  return (
    <pre
      className={`whitespace-pre-wrap break-words rounded-lg border border-sky-200 bg-sky-50/50 p-3 font-mono text-sm text-stone-800 ${className}`}
      data-testid={testId}
    >
      <span className="text-stone-500">{text.slice(0, prefix)}</span>
      <mark className="rounded bg-amber-200 text-stone-900" data-testid="differs">
        {text.slice(prefix, Math.max(prefix, end))}
      </mark>
      <span className="text-stone-500">{text.slice(Math.max(prefix, end))}</span>
    </pre>
  );
}
