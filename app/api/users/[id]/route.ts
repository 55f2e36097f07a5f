import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { isAdmin } from "@/lib/access/viewer";
import { requestViewer } from "@/app/_lib/viewer";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

/** Disables a person (their sessions end at once) or enables them again. */
export async function PATCH(request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!isAdmin(requestViewer(request))) return Response.json({ error: "only admins change users" }, { status: 403 });
  const id = Number.parseInt((await params).id, 10);
  const json = await jsonBody(request);
  if (!json.ok) return json.response;
  const parsed = z.object({ disabled: z.boolean() }).safeParse(json.value);
  if (!parsed.success || !Number.isSafeInteger(id))
    return Response.json({ error: "expected {disabled: true|false} for a user id" }, { status: 400 });
  const store = await getStore();
  if (!(await store.users.list()).some((u) => u.id === id))
    return Response.json({ error: `no user ${id}` }, { status: 404 });
  await store.users.setDisabled(id, parsed.data.disabled);
  return Response.json({ ok: true });
}
