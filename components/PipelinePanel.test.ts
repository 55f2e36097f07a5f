// @vitest-environment happy-dom
// The training-data panel as a page load mounts it: each step says what made its output, and each form
// starts from that record (or from the published defaults where there is none), and sends what it shows.
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { PipelinePanel } from "./PipelinePanel";
import { pipelineView } from "@/lib/sweet/pipeline-view";
import { emptyLineage, readLineage, type PipelineLineage } from "@/lib/sweet/lineage";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const counts = {
  episodesDone: 6,
  tasksWithSamples: 3,
  tasksWithTwoSamples: 3,
  trajectoryPairs: 3,
  states: 18,
  statesWithCandidates: 18,
  candidates: 54,
  ranked: 54,
  rankedStates: 18,
  turnPairs: 36,
  pairable: 3,
  benchmark: "backend" as const,
};

const record = (id: number, step: string, lineage: Record<string, unknown>) =>
  readLineage({ id, step, createdAt: new Date("2026-11-28T17:00:00Z"), runId: 7, runName: "weak", lineage })!;

function recorded(): PipelineLineage {
  const lineage = emptyLineage();
  lineage.candidates = [
    record(3, "candidates", {
      via: "studio",
      policy: { url: "http://gpu-box:8000/v1", model: "policy-8b" },
      template: "llama3",
      n: 2,
    }),
    record(1, "candidates", { via: "cli", policy: { url: "http://old:8000/v1", model: "old" }, n: 4 }),
  ];
  lineage.rank = [
    record(4, "rank", {
      via: "cli",
      critic: { url: "http://gpu-box:8001/v1", replicas: ["http://gpu-box:8002/v1"], model: "critic" },
      groundTruth: false,
      sum: false,
    }),
  ];
  lineage["turn-pairs"] = [
    record(5, "turn-pairs", { via: "studio", pairsPerState: 2, seed: 9, pool: "samples+own", order: "best-of-k" }),
  ];
  return lineage;
}

let root: Root | null = null;
let host: HTMLDivElement;
const mount = (lineage: PipelineLineage) =>
  act(async () => {
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
    root.render(
      createElement(PipelinePanel, { runId: 7, view: { ...pipelineView(counts, "weak", lineage), last: null } }),
    );
  });

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  host?.remove();
  vi.unstubAllGlobals();
});

const card = (step: string) => host.querySelector<HTMLElement>(`[data-testid="step-${step}"]`)!;
const input = (step: string, name: string) => card(step).querySelector<HTMLInputElement>(`[name="${name}"]`)!;

describe("the training-data panel", () => {
  it("says what made each step's output, the latest start first and earlier ones folded", async () => {
    await mount(recorded());
    const candidates = card("candidates").querySelector('[data-testid="step-lineage"]')!;
    expect(candidates.textContent).toContain(
      "Made by: run weak · policy http://gpu-box:8000/v1#policy-8b · template llama3 · n 2 per turn · from the studio 2026-11-28 17:00 UTC",
    );
    expect(candidates.querySelector("summary")!.textContent).toBe("1 earlier start");
    expect(candidates.querySelector("li")!.textContent).toContain("policy http://old:8000/v1#old");
    expect(card("rank").textContent).toContain(
      "critic http://gpu-box:8001/v1,http://gpu-box:8002/v1#critic · without the final answer · mean log-probs",
    );
    expect(card("pairs").querySelector('[data-testid="step-lineage"]')).toBeNull();
  });

  it("starts every form from the latest record, and sends what the form shows", async () => {
    const posted: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init: RequestInit) => {
        posted.push(JSON.parse(init.body as string));
        return new Response("{}", { status: 202 });
      }),
    );
    await mount(recorded());
    expect(input("candidates", "server").value).toBe("http://gpu-box:8000/v1#policy-8b");
    expect(input("candidates", "n").value).toBe("2");
    expect(input("rank", "server").value).toBe("http://gpu-box:8001/v1,http://gpu-box:8002/v1#critic");
    expect(input("rank", "groundTruth").checked).toBe(false);
    expect(input("turn-pairs", "pairsPerState").value).toBe("2");
    expect(input("turn-pairs", "seed").value).toBe("9");
    expect(card("turn-pairs").querySelector<HTMLSelectElement>('[name="pool"]')!.value).toBe("samples+own");
    expect(card("turn-pairs").querySelector<HTMLSelectElement>('[name="order"]')!.value).toBe("best-of-k");
    for (const step of ["rank", "turn-pairs"])
      await act(async () => {
        card(step).querySelector("form")!.requestSubmit();
      });
    expect(posted).toEqual([
      { step: "rank", server: "http://gpu-box:8001/v1,http://gpu-box:8002/v1#critic", groundTruth: false },
      { step: "turn-pairs", pairsPerState: "2", seed: "9", includeOwn: true, order: "best-of-k" },
    ]);
  });

  it("starts from the published scripts' defaults where no step has run", async () => {
    await mount(emptyLineage());
    expect(input("candidates", "server").value).toBe("");
    expect(input("candidates", "n").value).toBe("16");
    expect(input("rank", "groundTruth").checked).toBe(true);
    expect(input("turn-pairs", "pairsPerState").value).toBe("8");
    expect(input("turn-pairs", "seed").value).toBe("42");
    expect(host.querySelector('[data-testid="step-lineage"]')).toBeNull();
  });
});
