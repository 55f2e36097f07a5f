import { getStore } from "@/lib/store";
import { getRunManager } from "@/lib/runs/active";

export async function POST(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const id = Number.parseInt((await params).id, 10);
  const run = Number.isSafeInteger(id) ? await (await getStore()).runs.find(id) : null;
  if (!run) return Response.json({ error: "no such run" }, { status: 404 });
  getRunManager().start(id);
  return Response.json({ resumed: id });
}
