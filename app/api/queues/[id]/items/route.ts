import { leadQueue } from "@/app/_lib/lead";
import { ITEM_COLUMNS, ITEM_SORTS, itemRows } from "@/lib/label/items-table";
import type { ItemOrder } from "@/lib/store/queue-items";
import { EXPORT_FORMATS, exportResponse, parseSort, tableExport, type ExportFormat } from "@/lib/table/table";

export const dynamic = "force-dynamic";

/** Every pair of a queue with its labels, as the queue's page shows them: `?format=csv|json&sort=&dir=`. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const led = await leadQueue(request, params);
  if (!led.ok) return led.response;
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const format = (query.format ?? "csv") as ExportFormat;
  if (!EXPORT_FORMATS.includes(format))
    return Response.json({ error: `format: one of ${EXPORT_FORMATS.join(", ")}` }, { status: 400 });
  const order = parseSort(query, ITEM_SORTS);
  const { items } = await led.store.queues.browse(led.queue.id, {
    order: order?.column as ItemOrder | undefined,
    dir: order?.dir,
    limit: 100_000,
  });
  return exportResponse(tableExport(ITEM_COLUMNS, itemRows(items), format, `${led.queue.name}.pairs`));
}
