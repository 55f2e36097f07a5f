import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { getRunManager } from "@/lib/runs/active";
import { parseServerSpec } from "@/lib/colbench/server-spec";
import { BENCHMARKS } from "@/lib/colbench/tasks";
import { BROWSERS, PROFILE_NAMES } from "@/lib/colbench/render-profile";
import { EMBEDDER_NAMES } from "@/lib/colbench/run-config";

export const dynamic = "force-dynamic";

const newRunSchema = z.object({
  benchmark: z.enum(BENCHMARKS),
  tasks: z.string().trim().min(1).default("all"),
  limit: z.coerce.number().int().positive().optional(),
  bestOf: z.coerce.number().int().min(1).max(64).default(1),
  concurrency: z.coerce.number().int().min(1).max(256).default(8),
  agent: z.string().trim().min(1),
  simulator: z.string().trim().min(1),
  name: z.string().trim().min(1).optional(),
  /** Frontend: the render profile and engine (default paper, chromium). */
  profile: z.enum(PROFILE_NAMES).optional(),
  browser: z.enum(BROWSERS).optional(),
  /** Frontend: left out, CLIP ViT-B/32 when its weights are cached or fetchable, else default-v2. */
  embedder: z.enum(EMBEDDER_NAMES).optional(),
  clip: z.string().trim().min(1).optional(),
});

/** Starts a run in the studio's process; the same as `colbench run`. */
export async function POST(request: Request) {
  const json = await jsonBody(request);
  if (!json.ok) return json.response;
  const parsed = newRunSchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return Response.json({ error: `${issue?.path.join(".") || "body"}: ${issue?.message}` }, { status: 400 });
  }
  const body = parsed.data;
  try {
    const id = await getRunManager().create({
      benchmark: body.benchmark,
      selector: body.tasks,
      selectorField: "Tasks",
      limit: body.limit,
      bestOf: body.bestOf,
      concurrency: body.concurrency,
      agent: parseServerSpec(body.agent, "agent"),
      simulator: parseServerSpec(body.simulator, "simulator"),
      name: body.name,
      profile: body.profile,
      browser: body.browser,
      embedder: body.embedder,
      clipPath: body.clip,
    });
    return Response.json({ id }, { status: 201 });
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 400 });
  }
}
