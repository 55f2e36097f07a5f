import { describe, expect, it } from "vitest";
import { flatLabelRecord } from "./exports-csv";

// A raw label line flattens to the same columns whatever it holds: the sides as columns of their own,
// criteria (present only where a queue asks) as JSON in the last column.

describe("flatLabelRecord", () => {
  it("gives every record the same columns, sides flattened", () => {
    const plain = flatLabelRecord({
      queue: "q",
      item: 3,
      a: { run: 1, episode: 7 },
      b: { run: 2, candidate: 9 },
      choice: "a",
      comment: 'said "fine", then left',
    });
    const graded = flatLabelRecord({
      queue: "q",
      item: 4,
      a: { run: 1, episode: 8 },
      b: { run: 2, episode: 10 },
      choice: "b",
      criteria: { clarity: "a" },
      comment: null,
    });
    expect(Object.keys(plain)).toEqual(Object.keys(graded));
    expect(plain).toMatchObject({ a_run: 1, a_episode: 7, a_candidate: null, b_candidate: 9, criteria: null });
    expect(graded.criteria).toBe('{"clarity":"a"}');
  });
});
