// The scorer types live with the benchmark modules, which open their scorers.
export type { AnswerScorer, OpenScorer } from "../benchmarks/scorer";
