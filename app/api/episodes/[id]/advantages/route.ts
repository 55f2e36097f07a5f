import { z } from "zod";
import { requestViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";
import { servedModels } from "@/lib/gpu/node/served-weights";
import { jsonBody } from "@/lib/http/guard";
import { getStore } from "@/lib/store";
import { ScoreError } from "@/lib/store/episode-scores";

export const dynamic = "force-dynamic";

const value = z.number().finite().nullable();
const values = { criticScore: value, policyMean: value, policySum: value, advantage: value };
const bodySchema = z.object({
  turns: z
    .array(z.object({ turn: z.number().int().min(0), ...values, candidates: z.array(z.object({ index: z.number().int().min(0), ...values })).max(1000).optional() }))
    .min(1)
    .max(1000),
});

/**
 * Stores the scores a browser computed for an episode's agent turns with the policy and critic the
 * studio serves (recorded under those folders' names): candidates' critic scores, policy log-probs
 * and advantages, and each turn's advantage, which the replay charts.
 */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!seesHidden(requestViewer(request))) return Response.json({ error: "researchers and admins only" }, { status: 403 });
  const id = Number.parseInt((await params).id, 10);
  if (!Number.isSafeInteger(id)) return Response.json({ error: "no such episode" }, { status: 404 });
  const models = servedModels();
  if (!models.critic || !models.policy) return Response.json({ error: "this studio serves no policy and critic (start it with --policy-weights DIR --critic-weights DIR)" }, { status: 409 });
  const json = await jsonBody(request);
  if (!json.ok) return json.response;
  const parsed = bodySchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return Response.json({ error: `${issue?.path.join(".") || "body"}: ${issue?.message}` }, { status: 400 });
  }
  try {
    const saved = await (await getStore()).sweet.saveEpisodeScores(id, { critic: models.critic, policy: models.policy }, parsed.data.turns);
    return Response.json(saved);
  } catch (error) {
    if (error instanceof ScoreError) return Response.json({ error: error.message }, { status: 400 });
    throw error;
  }
}
