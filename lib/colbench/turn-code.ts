// The fence rule ColBench's code answers follow, for showing what a turn proposes (each benchmark's
// `proposalOf`, lib/benchmarks). Scoring never uses this: the sandbox applies the benchmark's own
// fence rules to final answers.

const FENCE = "```";

/** The benchmark's fence rule for answers: after "```python" up to the next fence; else between the first two fences. */
export function stripFences(code: string): string {
  let text = code;
  const python = text.indexOf(FENCE + "python");
  if (python >= 0) {
    const rest = text.slice(python + FENCE.length + "python".length);
    const end = rest.indexOf(FENCE);
    text = end >= 0 ? rest.slice(0, end) : rest;
  }
  const first = text.indexOf(FENCE);
  if (first >= 0) {
    const second = text.indexOf(FENCE, first + FENCE.length);
    text = second >= 0 ? text.slice(first + FENCE.length, second) : text.slice(first + FENCE.length);
  }
  return text;
}
