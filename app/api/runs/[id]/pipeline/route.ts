import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { getPipelineJobs } from "@/lib/sweet/jobs";
import { getStore } from "@/lib/store";
import { loadPipelineView } from "@/lib/sweet/pipeline-view";

export const dynamic = "force-dynamic";

const stepSchema = z.object({
  step: z.enum(["pairs", "candidates", "rank", "turn-pairs"]),
  server: z.string().trim().optional(),
  n: z.coerce.number().int().min(1).max(64).optional(),
  groundTruth: z.boolean().optional(),
  sum: z.boolean().optional(),
  pairsPerState: z.coerce.number().int().min(1).max(64).optional(),
  seed: z.coerce.number().int().min(0).optional(),
  includeOwn: z.boolean().optional(),
  order: z.enum(["task", "best-of-k"]).optional(),
  /** A hub id, model folder or fallback name (llama3, chatml); the run's recorded template when left out. */
  template: z.string().min(1).max(500).optional(),
});

/** Where SWEET-RL's steps stand on a run: each step's state and counts (from the stored rows), the next step, the exports; and the latest step's news. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const runId = Number.parseInt((await params).id, 10);
  const store = await getStore();
  const run = await store.runs.find(runId);
  if (!run) return Response.json({ error: `no run ${runId}` }, { status: 404 });
  return Response.json({ ...(await loadPipelineView(store, run)), last: getPipelineJobs().status(run.id) });
}

/** Starts (or continues) a SWEET-RL step on a run's data; the same as `colbench pairs|candidates|rank|turn-pairs`. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const runId = Number.parseInt((await params).id, 10);
  const json = await jsonBody(request);
  if (!json.ok) return json.response;
  const parsed = stepSchema.safeParse(json.value);
  if (!parsed.success)
    return Response.json(
      { error: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") },
      { status: 400 },
    );
  if (!(await (await getStore()).runs.find(runId))) return Response.json({ error: `no run ${runId}` }, { status: 404 });
  try {
    getPipelineJobs().start(runId, parsed.data);
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 409 });
  }
  return Response.json({ started: parsed.data.step }, { status: 202 });
}
