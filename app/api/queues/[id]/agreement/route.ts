import { seesHidden } from "@/lib/access/viewer";
import { agreementReport, cohenCsv } from "@/lib/label/report";
import { getStore } from "@/lib/store";
import { requestViewer } from "@/app/_lib/viewer";

export const dynamic = "force-dynamic";

/**
 * A queue's agreement report as JSON (as `colbench labels agreement`); with `?format=cohen-csv`, its
 * pairwise Cohen's kappas alone as CSV, one row per two people. Researchers and admins.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!seesHidden(requestViewer(request)))
    return Response.json({ error: "agreement reports are for researchers and admins" }, { status: 403 });
  const store = await getStore();
  const queue = await store.queues.find(Number.parseInt((await params).id, 10));
  if (!queue) return Response.json({ error: "no such queue" }, { status: 404 });
  const file = queue.name.replace(/[^\w.-]+/g, "_");
  const format = new URL(request.url).searchParams.get("format");
  if (format === "cohen-csv")
    return new Response(cohenCsv(agreementReport(await store.labels.ofQueue(queue.id))), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${file}.cohen.csv"`,
      },
    });
  if (format !== null && format !== "json")
    return Response.json({ error: `format: json or cohen-csv (got "${format}")` }, { status: 400 });
  return Response.json(
    { queue: queue.name, ...agreementReport(await store.labels.ofQueue(queue.id)) },
    { headers: { "Content-Disposition": `inline; filename="${file}.agreement.json"` } },
  );
}
