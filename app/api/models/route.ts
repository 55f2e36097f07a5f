import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { deleteCached, listCached } from "@/lib/hub";

export const dynamic = "force-dynamic";

/** The Hugging Face cache the studio shares with Python: what `colbench models list --json` prints. */
export async function GET() {
  return Response.json(listCached());
}

const deleteSchema = z.object({ id: z.string().trim().min(1) });

/** Removes one repository from the cache (every revision); the same as `colbench models delete`. */
export async function DELETE(request: Request) {
  const json = await jsonBody(request);
  if (!json.ok) return json.response;
  const parsed = deleteSchema.safeParse(json.value);
  if (!parsed.success)
    return Response.json({ error: "id: a hub id such as openai/clip-vit-base-patch32" }, { status: 400 });
  try {
    const { removed, bytes } = deleteCached(parsed.data.id);
    if (!removed) return Response.json({ error: `${parsed.data.id} is not in the cache` }, { status: 404 });
    return Response.json({ removed: parsed.data.id, bytes });
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 400 });
  }
}
