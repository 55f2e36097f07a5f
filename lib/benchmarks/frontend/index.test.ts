import { describe, expect, it } from "vitest";
import { EMBEDDER_DEVICES } from "../../scoring/frontend/embedders";
import type { BenchmarkModule } from "../module";
import { frontend as registered } from "./index";
import { frontendScoreCli } from "./score-cli";
// As the registry hands it out.
const frontend: BenchmarkModule = registered;

const render = "a".repeat(64);

describe("the frontend module", () => {
  it("proposes the page an agent turn rendered, and nothing for the simulator's turns", () => {
    expect(frontend.proposalOf({ role: "agent", content: "x", html: "<html></html>" })).toBe("<html></html>");
    expect(frontend.proposalOf({ role: "agent", content: "x" })).toBeNull();
    expect(frontend.proposalOf({ role: "simulator", content: "x", html: "<html></html>" })).toBeNull();
  });

  it("shows a side's final render and the target's only by their ids", () => {
    expect(frontend.labelSide({ answerRender: render, targetRender: render }, false)).toEqual({ render });
    expect(frontend.labelSide({ answerRender: "../../etc/passwd" }, true)).toEqual({ render: null });
    expect(frontend.hidden.label({ groundTruth: "<html/>", testCases: null }, { targetRender: render })).toEqual({
      targetRender: render,
      groundTruth: "<html/>",
    });
    expect(frontend.hidden.label({ groundTruth: "<html/>", testCases: null }, undefined)).toEqual({
      targetRender: null,
      groundTruth: "<html/>",
    });
  });

  it("describes `colbench score frontend` with the devices CLIP runs on", () => {
    expect(frontendScoreCli.options.find((o) => o.flags.startsWith("--device"))!.choices).toEqual(EMBEDDER_DEVICES);
    expect(frontendScoreCli.options.map((o) => o.flags.split(" ")[0])).toEqual([
      "--out",
      "--embedder",
      "--clip",
      "--device",
      "--clip-onnx",
      "--concurrency",
      "--profile",
      "--browser",
      "--placeholder-photo",
      "--no-cache",
    ]);
  });
});
