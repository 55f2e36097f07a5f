"use client";

import { useEffect, useState } from "react";
import type { EmbedderChoice } from "@/lib/scoring/frontend/embedders/choose";

const field = "rounded-md border border-stone-300 bg-white px-2.5 py-1.5 text-sm";
const label = "flex flex-col gap-1 text-xs text-stone-600";

/** A frontend run's own options: which image embedder scores it (and what it would be left to itself), CLIP's weights. */
export function FrontendRunOptions() {
  const [choice, setChoice] = useState<EmbedderChoice | null>(null);

  // Which embedder a frontend run would score with, asked of the server once the form is for one.
  useEffect(() => {
    let live = true;
    fetch("/api/embedder")
      .then((r) => r.json() as Promise<EmbedderChoice>)
      .then((c) => live && setChoice(c))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);

  return (
    <>
      <p
        className="rounded-md bg-stone-50 px-3 py-2 text-sm text-stone-700 sm:col-span-2"
        data-testid="embedder-choice"
        data-embedder={choice?.embedder ?? ""}
      >
        Similarity: {choice ? choice.reason : "checking which image embedder this run would use…"}
      </p>
      <label className={label}>
        Image embedder
        <select name="embedder" className={field} defaultValue="">
          <option value="">
            automatic{choice ? ` (${choice.embedder === "default" ? "default-v2" : "clip-vit-b32"})` : ""}
          </option>
          <option value="clip-vit-b32">clip-vit-b32 (the paper&apos;s metric)</option>
          <option value="default">default-v2 (weight-free)</option>
        </select>
      </label>
      <label className={label}>
        CLIP weights (folder or hub id, optional)
        <input name="clipPath" placeholder="openai/clip-vit-base-patch32" className={`${field} font-mono`} />
      </label>
    </>
  );
}
