import { z } from "zod";
import { serverSpecSchema } from "./server-spec";
import { BENCHMARKS } from "./tasks";
import { MESSAGE_CHAR_LIMIT } from "./protocol";
import { LEGACY_RENDER_PROFILE, renderProfileSchema, type RenderProfile } from "./render-profile";

// A run's stored configuration. It lives here, below both the store and the runner, so that
// listing runs never loads the runner, the scorers or the CLIP code.

/** The image embedders a frontend score may be computed (and recorded) with. */
export const EMBEDDER_NAMES = ["clip-vit-b32", "default"] as const;
export type EmbedderName = (typeof EMBEDDER_NAMES)[number];

/** A side of the dialogue: a model server, or a person at the studio (moves arrive from a browser). */
export const humanPlayerSchema = z.object({ human: z.literal(true) });
export const playerSchema = z.union([serverSpecSchema, humanPlayerSchema]);
export type Player = z.infer<typeof playerSchema>;

export function isHuman(player: Player): player is z.infer<typeof humanPlayerSchema> {
  return "human" in player;
}

/** How a side is shown: the model's name, or "human". */
export function playerName(player: Player): string {
  return isHuman(player) ? "human" : player.model;
}

/** Dollars per million tokens of one side's model, for the run page's cost estimate. */
export const sidePricesSchema = z.object({ prompt: z.number().min(0), completion: z.number().min(0) });

/** Everything needed to reproduce or resume a run; stored as the Run's config. */
export const runConfigSchema = z.object({
  benchmark: z.enum(BENCHMARKS),
  /** The selector as the user wrote it, and the task ids it resolved to when the run was made. */
  selector: z.string(),
  taskIds: z.array(z.number().int()),
  bestOf: z.number().int().min(1),
  agent: playerSchema,
  simulator: playerSchema,
  prompts: z.object({ agent: z.string(), simulator: z.string() }),
  /** Where the prompts came from (a file path, or "default"). */
  promptSources: z.object({ agent: z.string(), simulator: z.string() }),
  sampling: z.object({ temperature: z.number().min(0), maxTokens: z.number().int().positive(), logprobs: z.boolean() }),
  maxAgentTurns: z.number().int().min(1),
  /** The longest move a person may send from a seat (characters). */
  messageChars: z.number().int().positive().default(MESSAGE_CHAR_LIMIT),
  concurrency: z.number().int().min(1),
  /** How long a model server may stay down before its episodes fail (absent: 10 minutes). */
  giveUpSeconds: z.number().positive().optional(),
  /** Frontend: which image embedder scores similarity (recorded with every score too). */
  embedder: z.enum(EMBEDDER_NAMES).default("default"),
  prices: z.object({ agent: sidePricesSchema.optional(), simulator: sidePricesSchema.optional() }).optional(),
  /**
   * Frontend: how pages are rendered for the simulator and the score (profile, engine,
   * placeholders). Runs stored before profiles existed were rendered as studio-1280 in Chromium.
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
});

export type RunConfig = z.infer<typeof runConfigSchema>;

/**
 * The profile a run's scores were made under: frontend runs' (legacy ones read as studio-1280),
 * null for backend runs and for imported trajectories, whose rewards came from elsewhere.
 */
export function runRenderProfile(config: unknown): RenderProfile | null {
  const parsed = runConfigSchema.safeParse(config);
  if (!parsed.success || parsed.data.benchmark !== "frontend") return null;
  return parsed.data.render;
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

/** A frontend run's embedder from its stored config; null for backend runs and imported rewards. */
export function runEmbedder(config: unknown): RunEmbedder | null {
  const parsed = runConfigSchema.safeParse(config);
  if (!parsed.success || parsed.data.benchmark !== "frontend") return null;
  if (parsed.data.embedder === "clip-vit-b32") {
    const weights = parsed.data.clipPath ?? null;
    return { id: "clip-vit-b32", weights, paperMetric: true, label: `clip-vit-b32 · ${weights ?? "weights not recorded"}` };
  }
  return { id: WEIGHT_FREE_ID, weights: null, paperMetric: false, label: `${WEIGHT_FREE_ID} · weight-free, not comparable with the paper` };
}
