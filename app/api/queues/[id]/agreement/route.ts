import { seesHidden } from "@/lib/access/viewer";
import { agreementReport } from "@/lib/label/report";
import { getStore } from "@/lib/store";
import { requestViewer } from "@/app/_lib/viewer";

export const dynamic = "force-dynamic";

/** A queue's agreement report as JSON (as `colbench labels agreement`); researchers and admins. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!seesHidden(requestViewer(request)))
    return Response.json({ error: "agreement reports are for researchers and admins" }, { status: 403 });
  const store = await getStore();
  const queue = await store.queues.find(Number.parseInt((await params).id, 10));
  if (!queue) return Response.json({ error: "no such queue" }, { status: 404 });
  return Response.json(
    { queue: queue.name, ...agreementReport(await store.labels.ofQueue(queue.id)) },
    { headers: { "Content-Disposition": `inline; filename="${queue.name.replace(/[^\w.-]+/g, "_")}.agreement.json"` } },
  );
}
