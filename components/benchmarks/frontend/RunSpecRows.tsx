import type { ReactNode } from "react";
import { profileLabel } from "@/lib/colbench/render-profile";
import { frontendOptionsSchema, runEmbedder } from "@/lib/benchmarks/frontend/run-options";

/** How a frontend run is scored, for "What was run": the embedder (and why it was chosen) and the render profile. */
export function frontendSpecRows(config: unknown): Array<[string, ReactNode]> {
  const embedder = runEmbedder(config);
  const options = frontendOptionsSchema.safeParse(config);
  if (!embedder || !options.success) return [];
  return [
    [
      "Similarity by",
      <span key="e" className={embedder.paperMetric ? "" : "text-amber-800"}>
        <span className="font-mono" data-testid="run-embedder">
          {embedder.label}
        </span>
        {options.data.embedderReason ? (
          <span className="block text-xs text-stone-500">chosen because: {options.data.embedderReason}</span>
        ) : null}
      </span>,
    ],
    [
      "Rendered",
      <span key="r" className="font-mono" data-testid="run-profile">
        {profileLabel(options.data.render)}
      </span>,
    ],
  ];
}
