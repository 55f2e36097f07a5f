import { z } from "zod";
import { requestViewer } from "@/app/_lib/viewer";
import { holdsSeat } from "@/lib/access/renders";
import { seesHidden, type Viewer } from "@/lib/access/viewer";
import { liveScorers, studioTurnScorer } from "@/lib/gpu/live-service";
import { jsonBody } from "@/lib/http/guard";
import { getStore } from "@/lib/store";
import { ScoreError } from "@/lib/store/episode-scores";
import { LiveServerRefused, NoLiveServers } from "@/lib/sweet/live-servers";

export const dynamic = "force-dynamic";

// An episode's live advantages as numbers with what computed them (device, models, template),
// never the critic's prompt or anything else of the hidden information: so a person in the agent's
// seat may be shown them, when the episode's run is in coach mode (practice play). POST scores the
// named agent turns in the studio's process (the tab that asks is never sent the critic's prompt),
// with the weights it serves or, without them, through model servers; a server's refusal reaches
// such a seat without the server's words, which may quote the critic's prompt.

type Access = { ok: true; seesHidden: boolean; coach: boolean } | { ok: false; response: Response };

async function access(request: Request, id: number): Promise<Access> {
  const viewer: Viewer = requestViewer(request);
  const coach = await (await getStore()).sweet.coachMode(id);
  if (coach === null) return { ok: false, response: Response.json({ error: "no such episode" }, { status: 404 }) };
  if (seesHidden(viewer) || holdsSeat(viewer, id, "simulator")) return { ok: true, seesHidden: true, coach };
  if (!holdsSeat(viewer, id, "agent"))
    return { ok: false, response: Response.json({ error: "no such episode" }, { status: 404 }) };
  if (!coach)
    return {
      ok: false,
      response: Response.json(
        { error: "coach mode is off in this episode's run: the critic's judgement is shown in practice play only" },
        { status: 403 },
      ),
    };
  return { ok: true, seesHidden: false, coach };
}

async function episodeId(params: Promise<{ id: string }>): Promise<number | null> {
  const id = Number.parseInt((await params).id, 10);
  return Number.isSafeInteger(id) ? id : null;
}

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const id = await episodeId(params);
  if (id === null) return Response.json({ error: "no such episode" }, { status: 404 });
  const allowed = await access(request, id);
  if (!allowed.ok) return allowed.response;
  const store = await getStore();
  const advantages = await store.sweet.liveAdvantages(id);
  return Response.json(
    { coach: allowed.coach, served: await served(store, id), advantages },
    { headers: { "Cache-Control": "no-store" } },
  );
}

const bodySchema = z.object({ turns: z.array(z.number().int().min(0)).min(1).max(100) });

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const id = await episodeId(params);
  if (id === null) return Response.json({ error: "no such episode" }, { status: 404 });
  const allowed = await access(request, id);
  if (!allowed.ok) return allowed.response;
  const json = await jsonBody(request);
  if (!json.ok) return json.response;
  const parsed = bodySchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return Response.json({ error: `${issue?.path.join(".") || "body"}: ${issue?.message}` }, { status: 400 });
  }
  const store = await getStore();
  // A turn scored already is not scored again: its value stands.
  const have = new Set((await store.sweet.liveAdvantages(id)).map((a) => a.turn));
  const todo = [...new Set(parsed.data.turns)].filter((t) => !have.has(t));
  try {
    if (todo.length) {
      const scorer = studioTurnScorer();
      if (!scorer)
        return Response.json(
          { error: "this process has no scorer of live advantages (it is set by colbench serve)" },
          { status: 409 },
        );
      const scored = await scorer.score(store, id, todo);
      if (!scored)
        return Response.json(
          {
            error:
              "this studio serves no policy and critic (start it with --policy-weights DIR --critic-weights DIR, or --critic URL#MODEL --policy URL#MODEL)",
          },
          { status: 409 },
        );
    }
  } catch (error) {
    if (error instanceof ScoreError) return Response.json({ error: error.message }, { status: 400 });
    if (error instanceof NoLiveServers) return Response.json({ error: error.message }, { status: 409 });
    if (error instanceof LiveServerRefused)
      return Response.json({ error: allowed.seesHidden ? error.message : error.plain }, { status: 502 });
    const message = (error as Error).message;
    if (/has no stored agent turn/.test(message)) return Response.json({ error: message }, { status: 400 });
    throw error;
  }
  return Response.json({
    coach: allowed.coach,
    served: await served(store, id),
    advantages: await store.sweet.liveAdvantages(id),
  });
}

/** The models that score the episode's turns here (served weights, else servers), null where none are known. */
async function served(store: Awaited<ReturnType<typeof getStore>>, id: number) {
  return (await liveScorers(store, id))?.served ?? { critic: null, policy: null };
}
