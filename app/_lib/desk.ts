import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { openDesk, type Desk } from "@/lib/label/desk";
import { STRENGTHS } from "@/lib/label/schema";
import { SIDES } from "@/lib/store/labels";
import type { Viewer } from "@/lib/access/viewer";
import { getStore, type Store } from "@/lib/store";
import { requestViewer } from "./viewer";

/** A desk request's parsed body, who sends it and to which queue; or the response that refuses the body. */
export async function deskBody<T extends z.ZodType>(
  request: Request,
  params: Promise<{ id: string }>,
  schema: T,
): Promise<
  { ok: true; store: Store; viewer: Viewer; queueId: number; body: z.infer<T> } | { ok: false; response: Response }
> {
  const json = await jsonBody(request);
  if (!json.ok) return json;
  const parsed = schema.safeParse(json.value ?? {});
  if (!parsed.success)
    return {
      ok: false,
      response: Response.json(
        { error: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") },
        { status: 400 },
      ),
    };
  return {
    ok: true,
    store: await getStore(),
    viewer: requestViewer(request),
    queueId: Number.parseInt((await params).id, 10),
    body: parsed.data,
  };
}

/** The labelling desk a request works at, with its parsed body; or the response that refuses it. */
export async function deskRequest<T extends z.ZodType>(
  request: Request,
  params: Promise<{ id: string }>,
  schema: T,
): Promise<{ ok: true; store: Store; desk: Desk; body: z.infer<T> } | { ok: false; response: Response }> {
  const got = await deskBody(request, params, schema);
  if (!got.ok) return got;
  const desk = await openDesk(got.store, got.viewer, got.queueId);
  if ("error" in desk) return { ok: false, response: Response.json({ error: desk.error }, { status: desk.status }) };
  return { ok: true, store: got.store, desk, body: got.body };
}

/** What a label carries, as the desk sends it (a new label, or a change to an earlier one). */
export const answerFields = {
  itemId: z.number().int(),
  side: z.enum(SIDES as ["left", "right", "tie", "both_bad"]),
  comment: z.string().max(4000).nullish(),
  ms: z.number().min(0).max(86_400_000),
  strength: z.enum(STRENGTHS as ["much", "slightly"]).nullish(),
  criteria: z.record(z.string().max(60), z.enum(["left", "right", "tie"])).nullish(),
};

export const holding = z.array(z.number().int()).max(16).default([]);
