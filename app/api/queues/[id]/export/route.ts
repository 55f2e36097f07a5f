import { seesHidden } from "@/lib/access/viewer";
import { humanTrainingLines, rawLabelLine } from "@/lib/label/exports";
import { TRAINING_FORMATS, type TrainingFormat } from "@/lib/sweet/pipeline";
import { getStore } from "@/lib/store";
import { requestViewer } from "@/app/_lib/viewer";
import { toCsv } from "@/lib/table/csv";
import { flatLabelRecord } from "@/lib/label/exports-csv";

export const dynamic = "force-dynamic";

const FORMATS = ["raw", "csv", ...TRAINING_FORMATS];

/** Raw labels (JSON lines, or CSV), or the pairs people decided as a training file (as `colbench labels export`); the summary is in a header. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!seesHidden(requestViewer(request)))
    return Response.json({ error: "exports are for researchers and admins" }, { status: 403 });
  const format = new URL(request.url).searchParams.get("format") ?? "raw";
  if (!FORMATS.includes(format))
    return Response.json({ error: `format: one of ${FORMATS.join(", ")}` }, { status: 400 });
  const store = await getStore();
  const queue = await store.queues.find(Number.parseInt((await params).id, 10));
  if (!queue) return Response.json({ error: "no such queue" }, { status: 404 });
  if (format === "csv") {
    // The raw labels, one flat record each (a side's run/episode/candidate as columns of their own).
    const records = (await store.labels.ofQueue(queue.id)).map((l) => flatLabelRecord(rawLabelLine(queue, l)));
    const header = records.length ? Object.keys(records[0]!) : [];
    return new Response(toCsv([header, ...records.map((r) => header.map((h) => r[h]))]), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${queue.name.replace(/[^\w.-]+/g, "_")}.labels.csv"`,
        "X-Colbench-Summary": JSON.stringify({ labels: records.length }),
      },
    });
  }
  let lines: Array<Record<string, unknown>>;
  let summary: Record<string, unknown>;
  if (format === "raw") {
    lines = (await store.labels.ofQueue(queue.id)).map((l) => rawLabelLine(queue, l));
    summary = { labels: lines.length };
  } else {
    try {
      const made = await humanTrainingLines(store, queue, format as TrainingFormat);
      lines = made.lines;
      summary = { ...made.summary };
    } catch (error) {
      return Response.json({ error: (error as Error).message }, { status: 400 });
    }
  }
  return new Response(lines.map((l) => JSON.stringify(l) + "\n").join(""), {
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="${queue.name.replace(/[^\w.-]+/g, "_")}.${format}.jsonl"`,
      "X-Colbench-Summary": JSON.stringify(summary),
    },
  });
}
