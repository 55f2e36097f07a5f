// What the labelling page may be sent of a benchmark's scores and hidden task: allow-listed
// fields only (lib/label/views.ts builds the rest of a pair's view). Each module says which of its
// score details a side shows, and what hidden information a queue that shows it reveals.

/** A render's id as the studio names it (a sha256): anything else is never sent. */
export const RENDER_ID = /^[0-9a-f]{64}$/;

export interface LabelTest {
  name: string;
  passed: boolean;
  /** Only with hidden information: the test itself and what it got. */
  expression?: string;
  reason?: string;
  expected?: string;
  actual?: string;
}

/** A side's score, as the benchmark shows it. */
export interface LabelSide {
  /** Per-test results (benchmarks scored by tests). */
  tests?: LabelTest[];
  /** The render of the final page (benchmarks whose answers are pages). */
  render?: string | null;
}

/** The hidden information a queue may show its labellers. */
export interface LabelHidden {
  groundTruth?: string;
  tests?: string[];
  targetRender?: string | null;
}
