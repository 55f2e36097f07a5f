import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

const bodySchema = z.object({ archived: z.boolean() });

/** Archives a run (hidden from every list and ranking) or restores it. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const id = Number.parseInt((await params).id, 10);
  const body = await jsonBody(request);
  if (!body.ok) return body.response;
  const parsed = bodySchema.safeParse(body.value);
  if (!parsed.success) return Response.json({ error: 'body: expected {"archived": true|false}' }, { status: 400 });
  const done = Number.isSafeInteger(id) && (await (await getStore()).runs.setArchived(id, parsed.data.archived));
  if (!done) return Response.json({ error: `no run ${(await params).id}` }, { status: 404 });
  return Response.json({ run: id, archived: parsed.data.archived });
}
