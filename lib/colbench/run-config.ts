import { z } from "zod";
import { serverSpecSchema } from "./server-spec";
import { MESSAGE_CHAR_LIMIT } from "./protocol";

// A run's stored configuration, the part common to every benchmark. It lives here, below both the
// store and the runner, so that listing runs never loads the runner, the scorers or the CLIP code.

/**
 * The image embedders a page's similarity may be computed (and recorded) with. Kept here, beside
 * render profiles, so that lib/scoring reads the names without the benchmark modules.
 */
export const EMBEDDER_NAMES = ["clip-vit-b32", "default"] as const;
export type EmbedderName = (typeof EMBEDDER_NAMES)[number];

/**
 * The agent as a model generating in the collaborator's browser tab (WebGPU, the policy weights the
 * studio serves): its seat is held like a person's, the tab posting each move. The folder it was served
 * from, the chat template its prompts were written in, and the sampling beyond the run's temperature
 * and token limit.
 */
export const tabModelSchema = z.object({
  model: z.string().min(1),
  template: z.string(),
  topP: z.number().gt(0).max(1),
  seed: z.number().int(),
});
/**
 * A side of the dialogue played at the studio, its moves arriving from a browser: a person, or (the
 * agent only) a model that a person's tab runs (`tab`).
 */
export const humanPlayerSchema = z.object({ human: z.literal(true), tab: tabModelSchema.optional() });
/**
 * The agent as a model run in the playing process itself (`--agent local:MODEL`, lib/gpu/generate):
 * the hub id or folder, where it ran, the chat template its prompts were written in, and the
 * sampling beyond the run's temperature and token limit.
 */
export const localPlayerSchema = z.object({
  local: z.object({
    model: z.string().min(1),
    device: z.enum(["webgpu", "cpu"]),
    template: z.string(),
    topP: z.number().gt(0).max(1),
    seed: z.number().int(),
  }),
});
export const playerSchema = z.union([serverSpecSchema, humanPlayerSchema, localPlayerSchema]);
export type Player = z.infer<typeof playerSchema>;
export type LocalPlayer = z.infer<typeof localPlayerSchema>;

export function isHuman(player: Player): player is z.infer<typeof humanPlayerSchema> {
  return "human" in player;
}

/** A seat held by a browser tab that generates its moves with a model (the agent in the collaborator's tab). */
export function isTab(player: Player): player is { human: true; tab: z.infer<typeof tabModelSchema> } {
  return isHuman(player) && player.tab !== undefined;
}

/** A person types this side's moves (a seat of the studio, not a model in a tab). */
export function isPerson(player: Player): boolean {
  return isHuman(player) && !isTab(player);
}

export function isLocal(player: Player): player is LocalPlayer {
  return "local" in player;
}

/** How a side is shown: the model's name, "local:" or "tab:" and the model for one run in-process or in a tab, or "human". */
export function playerName(player: Player): string {
  if (isTab(player)) return `tab:${player.tab.model}`;
  if (isHuman(player)) return "human";
  return isLocal(player) ? `local:${player.local.model}` : player.model;
}

/** Dollars per million tokens of one side's model, for the run page's cost estimate. */
export const sidePricesSchema = z.object({ prompt: z.number().min(0), completion: z.number().min(0) });

/**
 * The fields every run's stored config has, whatever its benchmark. The full config is these, the
 * benchmark's name and the benchmark's own run options (lib/benchmarks/run-config.ts).
 */
export const runConfigBaseSchema = z.object({
  /** The selector as the user wrote it, and the task ids it resolved to when the run was made. */
  selector: z.string(),
  taskIds: z.array(z.number().int()),
  /**
   * The limit the selector was resolved under (its first N tasks): null for none. Absent in runs made
   * before it was recorded, whose limit is not known.
   */
  limit: z.number().int().positive().nullable().optional(),
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
  prices: z.object({ agent: sidePricesSchema.optional(), simulator: sidePricesSchema.optional() }).optional(),
});

export type RunConfigBase = z.infer<typeof runConfigBaseSchema>;
