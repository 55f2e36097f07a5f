import { z } from "zod";
import { requestViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";
import { servedModels } from "@/lib/gpu/node/served-weights";
import { jsonBody } from "@/lib/http/guard";
import { getStore } from "@/lib/store";
import { ScoreError } from "@/lib/store/episode-scores";
import type { RecordedTemplate } from "@/lib/sweet/chat-template";

export const dynamic = "force-dynamic";

const value = z.number().finite().nullable();
const values = { criticScore: value, policyMean: value, policySum: value, advantage: value };
const template = z.object({
  ref: z.string().min(1).max(2000),
  chatTemplate: z.string().max(500_000).optional(),
  specialTokens: z.record(z.string(), z.unknown()).optional(),
  assistantHeader: z.string().max(10_000).optional(),
  assistantHeaderTokens: z.number().int().min(0).nullable().optional(),
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});
const bodySchema = z.object({
  device: z.string().min(1).max(300),
  definition: z.object({
    template,
    templateFrom: z.enum(["run", "critic", "fallback"]),
    settings: z.object({ sum: z.boolean(), groundTruth: z.boolean() }),
    settingsFrom: z.enum(["run", "default"]),
  }),
  turns: z
    .array(
      z.object({
        turn: z.number().int().min(0),
        ...values,
        candidates: z
          .array(z.object({ index: z.number().int().min(0), ...values }))
          .max(1000)
          .optional(),
      }),
    )
    .min(1)
    .max(1000),
});

/**
 * Keeps the scores a browser computed for an episode's agent turns with the policy and critic the
 * studio serves, as a record of their own (device, template, settings), with how far they are from
 * what `rank` stored. What `rank` stored is never written here: the run's ranking stays its own.
 */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!seesHidden(requestViewer(request)))
    return Response.json({ error: "researchers and admins only" }, { status: 403 });
  const id = Number.parseInt((await params).id, 10);
  if (!Number.isSafeInteger(id)) return Response.json({ error: "no such episode" }, { status: 404 });
  const models = servedModels();
  if (!models.critic || !models.policy)
    return Response.json(
      { error: "this studio serves no policy and critic (start it with --policy-weights DIR --critic-weights DIR)" },
      { status: 409 },
    );
  const json = await jsonBody(request);
  if (!json.ok) return json.response;
  const parsed = bodySchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return Response.json({ error: `${issue?.path.join(".") || "body"}: ${issue?.message}` }, { status: 400 });
  }
  const { device, definition, turns } = parsed.data;
  try {
    const used = { ...definition, template: definition.template as RecordedTemplate };
    const saved = await (
      await getStore()
    ).sweet.saveBrowserScores(id, { device, models: { critic: models.critic, policy: models.policy }, ...used }, turns);
    return Response.json(saved);
  } catch (error) {
    if (error instanceof ScoreError)
      return Response.json({ error: error.message }, { status: error.message.startsWith("no episode") ? 404 : 400 });
    throw error;
  }
}
