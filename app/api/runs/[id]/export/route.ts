import { requestViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";
import { getStore } from "@/lib/store";
import { TRAINING_FORMATS, trainingLines, type TrainingFormat } from "@/lib/sweet/pipeline";
import { officialLines } from "@/lib/sweet/official";
import { templateForRun } from "@/lib/sweet/run-template";
import { exportLineage, loadLineage } from "@/lib/sweet/lineage";

export const dynamic = "force-dynamic";

const FORMATS = ["official", "official-best-of-k", ...TRAINING_FORMATS];

/** A run as a JSONL download: its trajectories, or its SWEET-RL training pairs (as `colbench export`). */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  // Trajectories carry the simulator's prompts, and so the hidden information.
  if (!seesHidden(requestViewer(request)))
    return Response.json({ error: "exports are for researchers and admins" }, { status: 403 });
  const runId = Number.parseInt((await params).id, 10);
  const query = new URL(request.url).searchParams;
  const format = query.get("format") ?? "official";
  if (!FORMATS.includes(format))
    return Response.json({ error: `format: one of ${FORMATS.join(", ")}` }, { status: 400 });
  const store = await getStore();
  const run = await store.runs.find(runId);
  if (!run) return Response.json({ error: `no run ${runId}` }, { status: 404 });
  const template = await templateForRun(store, runId);
  const lines =
    format === "official" || format === "official-best-of-k"
      ? officialLines(store, runId, template, {
          layout: format === "official" ? "task" : "best-of-k",
          inputs: query.get("inputs") === "messages" ? "messages" : "string",
        })
      : trainingLines(store, runId, format as TrainingFormat, {
          withPrompt: query.get("withPrompt") === "1",
          template,
        });
  // A training file says what made its lines (as `colbench export` does on stderr): a header, in ASCII.
  const lineage =
    format === "official" || format === "official-best-of-k"
      ? null
      : JSON.stringify(exportLineage(run, format, template.recorded.ref, await loadLineage(store, runId))).replace(
          /[\u007f-\uffff]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
        );
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        for await (const line of lines) controller.enqueue(encoder.encode(JSON.stringify(line) + "\n"));
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="${run.name.replace(/[^\w.-]+/g, "_")}.${format}.jsonl"`,
      ...(lineage ? { "X-Colbench-Lineage": lineage } : {}),
    },
  });
}
