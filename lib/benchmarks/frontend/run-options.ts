import { z } from "zod";
import { EMBEDDER_NAMES, runConfigBaseSchema } from "../../colbench/run-config";
import { LEGACY_RENDER_PROFILE, renderProfileSchema, type RenderProfile } from "../../colbench/render-profile";

// What only frontend runs record: how pages are rendered and which embedder scores them. Light (no
// scorer, no browser), so listings and the run page read it.

export const frontendRunOptions = {
  /** Which image embedder scores similarity (recorded with every score too). */
  embedder: z.enum(EMBEDDER_NAMES).default("default"),
  /**
   * How pages are rendered for the simulator and the score (profile, engine, placeholders). Runs
   * stored before profiles existed were rendered as studio-1280 in Chromium.
   */
  render: renderProfileSchema.default(LEGACY_RENDER_PROFILE),
  /** The published placeholder photo's file, when the profile's placeholders are that photo. */
  placeholderPhoto: z.string().optional(),
  /** Earlier profiles whose scores `colbench rescore` replaced, oldest first. */
  rescored: z.array(z.object({ from: renderProfileSchema, at: z.string() })).optional(),
  /** clip-vit-b32: the folder or hub id its weights come from (resolved through the Hugging Face cache). */
  clipPath: z.string().optional(),
  /** Why the run scores with that embedder (chosen when it was made, so a resume never switches). */
  embedderReason: z.string().optional(),
};

export const frontendOptionsSchema = z.object(frontendRunOptions);
export type FrontendRunOptions = z.infer<typeof frontendOptionsSchema>;

/** A whole stored config of a frontend run (the run config's frontend variant). */
const frontendConfigSchema = z.object({
  benchmark: z.literal("frontend"),
  ...runConfigBaseSchema.shape,
  ...frontendRunOptions,
});

/**
 * The profile a run's scores were made under: frontend runs' (legacy ones read as studio-1280),
 * null for other benchmarks' runs and for imported trajectories, whose rewards came from elsewhere.
 */
export function runRenderProfile(config: unknown): RenderProfile | null {
  const parsed = frontendConfigSchema.safeParse(config);
  return parsed.success ? parsed.data.render : null;
}

/** Which image embedder a frontend run's similarities come from, as tables and warnings name it. */
export interface RunEmbedder {
  /** The id every score records: "clip-vit-b32" or "default-v2". */
  id: string;
  /** CLIP's weights (a hub id or a folder); null for the weight-free embedder. */
  weights: string | null;
  /** Whether its similarities are the paper's metric (CLIP ViT-B/32), so comparable with published figures. */
  paperMetric: boolean;
  /** One line: "clip-vit-b32 · openai/clip-vit-base-patch32" or "default-v2 · weight-free, not comparable with the paper". */
  label: string;
}

/** The weight-free embedder's id as its scores record it (lib/scoring/frontend/embedders/default.ts). */
const WEIGHT_FREE_ID = "default-v2";

/** A frontend run's embedder from its stored config; null for other benchmarks' runs and imported rewards. */
export function runEmbedder(config: unknown): RunEmbedder | null {
  const parsed = frontendConfigSchema.safeParse(config);
  if (!parsed.success) return null;
  if (parsed.data.embedder === "clip-vit-b32") {
    const weights = parsed.data.clipPath ?? null;
    return {
      id: "clip-vit-b32",
      weights,
      paperMetric: true,
      label: `clip-vit-b32 · ${weights ?? "weights not recorded"}`,
    };
  }
  return {
    id: WEIGHT_FREE_ID,
    weights: null,
    paperMetric: false,
    label: `${WEIGHT_FREE_ID} · weight-free, not comparable with the paper`,
  };
}
