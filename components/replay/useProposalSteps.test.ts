// @vitest-environment happy-dom
// The replay's stepping, mounted in a DOM: the URL's turn is applied on arrival, and a refresh of a live
// episode (a new `proposals` array with the same turns and more) keeps where the person stepped to.
import { afterEach, describe, expect, it } from "vitest";
import { act, createElement, useEffect } from "react";
import { createRoot, type Root } from "react-dom/client";
import { useProposalSteps } from "./useProposalSteps";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Steps = ReturnType<typeof useProposalSteps>;
let seen: Steps | null = null;
const report = (steps: Steps) => {
  seen = steps;
};
function Probe({ proposals, onSteps }: { proposals: Array<{ index: number }>; onSteps: (steps: Steps) => void }) {
  const steps = useProposalSteps(proposals);
  useEffect(() => onSteps(steps));
  return null;
}

let root: Root | null = null;
const mount = (proposals: Array<{ index: number }>) =>
  act(async () => {
    root ??= createRoot(document.createElement("div"));
    root.render(createElement(Probe, { proposals, onSteps: report }));
  });
const step = (by: number) =>
  act(async () => {
    seen?.step(by);
  });

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  window.location.hash = "";
});

const turns = (...indexes: number[]) => indexes.map((index) => ({ index }));

describe("useProposalSteps", () => {
  it("opens at the proposal in force at the turn the URL names", async () => {
    window.location.hash = "#turn-5";
    await mount(turns(1, 3, 5, 7));
    expect(seen?.at).toBe(2);
  });

  it("keeps the person's place when a live refresh brings the proposals again", async () => {
    window.location.hash = "#turn-3";
    await mount(turns(1, 3, 5, 7));
    expect(seen?.at).toBe(1);
    await step(2);
    expect(seen?.at).toBe(3);
    // The page refreshed as a new turn arrived: same proposals and one more, a new array.
    await mount(turns(1, 3, 5, 7, 9));
    expect(seen?.at).toBe(3);
  });

  it("steps within the proposals there are", async () => {
    await mount(turns(1, 3));
    expect(seen?.at).toBe(0);
    await step(-1);
    expect(seen?.at).toBe(0);
    await step(5);
    expect(seen?.at).toBe(1);
  });
});
