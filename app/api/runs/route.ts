import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { getRunManager } from "@/lib/runs/active";
import { parseServerSpec } from "@/lib/colbench/server-spec";
import { BENCHMARKS } from "@/lib/benchmarks";

export const dynamic = "force-dynamic";

// The fields every run has; any other field is the benchmark's own option (frontend: profile,
// browser, embedder, clipPath), passed on unchecked for its module to check (`prepareRun`).
const newRunSchema = z
  .object({
    benchmark: z.enum(BENCHMARKS),
    tasks: z.string().trim().min(1).default("all"),
    limit: z.coerce.number().int().positive().optional(),
    bestOf: z.coerce.number().int().min(1).max(64).default(1),
    concurrency: z.coerce.number().int().min(1).max(256).default(8),
    agent: z.string().trim().min(1),
    simulator: z.string().trim().min(1),
    name: z.string().trim().min(1).optional(),
  })
  .loose();

/** Starts a run in the studio's process; the same as `colbench run`. */
export async function POST(request: Request) {
  const json = await jsonBody(request);
  if (!json.ok) return json.response;
  const parsed = newRunSchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return Response.json({ error: `${issue?.path.join(".") || "body"}: ${issue?.message}` }, { status: 400 });
  }
  const { benchmark, tasks, limit, bestOf, concurrency, agent, simulator, name, ...options } = parsed.data;
  try {
    const id = await getRunManager().create({
      benchmark,
      selector: tasks,
      selectorField: "Tasks",
      limit,
      bestOf,
      concurrency,
      agent: parseServerSpec(agent, "agent"),
      simulator: parseServerSpec(simulator, "simulator"),
      name,
      options,
    });
    return Response.json({ id }, { status: 201 });
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 400 });
  }
}
