import { z } from "zod";
import { EMBEDDER_NAMES } from "../../colbench/run-config";
import { BROWSERS, DEFAULT_BROWSER, DEFAULT_PROFILE, PROFILE_NAMES } from "../../colbench/render-profile";
import { chooseFrontendEmbedder } from "../../scoring/frontend/embedders/choose";
import { resolvePlaceholderPhoto } from "../../scoring/frontend/placeholder-photo";

// A new frontend run's options, chosen once when it is made so that a resume never switches: the
// placeholder photo (its file and fingerprint go into the render profile) and the embedder (CLIP
// when its weights are cached or fetchable, else the weight-free one, said in a notice). Loaded
// only when a run is made: it reads files and may ask the hub.

/** What the form or `colbench run` may ask of a frontend run. */
export const frontendAskedSchema = z.object({
  /** Left out: CLIP ViT-B/32 when its weights are cached or can be fetched, else default-v2. */
  embedder: z.enum(EMBEDDER_NAMES).optional(),
  /** clip-vit-b32's weights: a folder or hub id. */
  clipPath: z.string().optional(),
  /** The render profile (default paper), engine (default chromium) and the published placeholder photo's file. */
  profile: z.enum(PROFILE_NAMES).optional(),
  browser: z.enum(BROWSERS).optional(),
  placeholderPhoto: z.string().optional(),
});

export type FrontendAsked = z.infer<typeof frontendAskedSchema>;

export async function prepareFrontendRun(
  asked: Record<string, unknown>,
): Promise<{ options: Record<string, unknown>; notice?: string }> {
  const parsed = frontendAskedSchema.safeParse(asked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${issue.path.join(".")}: ${issue.message}`);
  }
  const a = parsed.data;
  const photo = await resolvePlaceholderPhoto(a.placeholderPhoto);
  const choice = await chooseFrontendEmbedder({ embedder: a.embedder, clip: a.clipPath });
  return {
    options: {
      embedder: choice.embedder,
      clipPath: choice.clip ?? a.clipPath,
      embedderReason: choice.reason,
      render: {
        name: a.profile ?? DEFAULT_PROFILE,
        browser: a.browser ?? DEFAULT_BROWSER,
        placeholders: photo?.placeholders ?? "generated",
      },
      ...(photo ? { placeholderPhoto: photo.path } : {}),
    },
    notice: choice.notice,
  };
}
