import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { seesHidden } from "@/lib/access/viewer";
import { getStore, type Store } from "@/lib/store";
import type { QueueRow } from "@/lib/store/queues";
import { requestViewer } from "./viewer";

// The queue routes a lead uses (close, archive, edit, members, pairs, delete, the pairs' browser):
// researchers and admins only, as the queue list's own routes. The gate refuses annotators and
// signed-out visitors first; this says so again for a request that did not pass it.

type Led = { ok: true; store: Store; queue: QueueRow } | { ok: false; response: Response };

const refuse = (status: number, error: string): Led => ({ ok: false, response: Response.json({ error }, { status }) });

/** The queue a lead's request names, or the 401/403/404 that refuses it (an outsider learns nothing of it). */
export async function leadQueue(request: Request, params: Promise<{ id: string }>): Promise<Led> {
  const viewer = requestViewer(request);
  if (viewer.kind === "anonymous") return refuse(401, "sign in first");
  if (!seesHidden(viewer)) return refuse(403, "running a queue is for researchers and admins");
  const id = Number.parseInt((await params).id, 10);
  const store = await getStore();
  const queue = Number.isSafeInteger(id) ? await store.queues.find(id) : null;
  if (!queue) return refuse(404, "no such queue");
  return { ok: true, store, queue };
}

/** As `leadQueue`, with the request's JSON body parsed by `schema` (a 400 naming the field otherwise). */
export async function leadBody<T extends z.ZodType>(
  request: Request,
  params: Promise<{ id: string }>,
  schema: T,
): Promise<{ ok: true; store: Store; queue: QueueRow; body: z.infer<T> } | { ok: false; response: Response }> {
  const led = await leadQueue(request, params);
  if (!led.ok) return led;
  const json = await jsonBody(request);
  if (!json.ok) return json;
  const parsed = schema.safeParse(json.value ?? {});
  if (!parsed.success) {
    const error = parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
    return { ok: false, response: Response.json({ error }, { status: 400 }) };
  }
  return { ...led, body: parsed.data };
}

/** A lib/label error ("field: message") as a 400; anything else goes on up. */
export function refused(error: unknown): Response {
  return Response.json({ error: (error as Error).message }, { status: 400 });
}
