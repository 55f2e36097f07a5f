import { getStore } from "@/lib/store";
import { runConfigSchema } from "@/lib/benchmarks/run-config";

export const dynamic = "force-dynamic";

/** The prompt text a run's agent or simulator was given (as the run stored it), to read in the browser. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string; side: string }> }) {
  const { id, side } = await params;
  if (side !== "agent" && side !== "simulator")
    return Response.json({ error: `side: agent or simulator (got "${side}")` }, { status: 404 });
  const run = await (await getStore()).runs.find(Number.parseInt(id, 10));
  if (!run) return Response.json({ error: `no run ${id}` }, { status: 404 });
  const config = runConfigSchema.safeParse(run.config);
  if (!config.success)
    return Response.json(
      { error: `run ${run.name} has no stored prompts (its episodes were imported)` },
      { status: 404 },
    );
  return new Response(config.data.prompts[side], { headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
