import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { getPipelineJobs } from "@/lib/sweet/jobs";
import { getStore } from "@/lib/store";

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
  /** A hub id, model folder or fallback name (llama3, chatml); the run's recorded template when left out. */
  template: z.string().min(1).max(500).optional(),
});

/** Starts (or continues) a SWEET-RL step on a run's data; the same as `colbench pairs|candidates|rank|turn-pairs`. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const runId = Number.parseInt((await params).id, 10);
  const json = await jsonBody(request);
  if (!json.ok) return json.response;
  const parsed = stepSchema.safeParse(json.value);
  if (!parsed.success) return Response.json({ error: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") }, { status: 400 });
  if (!(await (await getStore()).runs.find(runId))) return Response.json({ error: `no run ${runId}` }, { status: 404 });
  try {
    getPipelineJobs().start(runId, parsed.data);
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 409 });
  }
  return Response.json({ started: parsed.data.step }, { status: 202 });
}
