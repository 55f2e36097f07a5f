import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { openDesk, type Desk } from "@/lib/label/desk";
import { getStore, type Store } from "@/lib/store";
import { requestViewer } from "./viewer";

/** The labelling desk a request works at, with its parsed body; or the response that refuses it. */
export async function deskRequest<T extends z.ZodType>(
  request: Request,
  params: Promise<{ id: string }>,
  schema: T,
): Promise<{ ok: true; store: Store; desk: Desk; body: z.infer<T> } | { ok: false; response: Response }> {
  const json = await jsonBody(request);
  if (!json.ok) return json;
  const parsed = schema.safeParse(json.value ?? {});
  if (!parsed.success) return { ok: false, response: Response.json({ error: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") }, { status: 400 }) };
  const store = await getStore();
  const desk = await openDesk(store, requestViewer(request), Number.parseInt((await params).id, 10));
  if ("error" in desk) return { ok: false, response: Response.json({ error: desk.error }, { status: desk.status }) };
  return { ok: true, store, desk, body: parsed.data };
}

export const holding = z.array(z.number().int()).max(16).default([]);
