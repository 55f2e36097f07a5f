import { z } from "zod";
import { serverSpecSchema } from "./server-spec";
import { BENCHMARKS } from "./tasks";

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
  concurrency: z.number().int().min(1),
  /** Frontend: which image embedder scores similarity (recorded with every score too). */
  embedder: z.enum(EMBEDDER_NAMES).default("default"),
  /** clip-vit-b32: the folder or hub id its weights come from (resolved through the Hugging Face cache). */
  clipPath: z.string().optional(),
  /** Why the run scores with that embedder (chosen when it was made, so a resume never switches). */
  embedderReason: z.string().optional(),
});

export type RunConfig = z.infer<typeof runConfigSchema>;
