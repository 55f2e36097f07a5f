import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { getStore } from "@/lib/store";
import { BENCHMARKS } from "@/lib/colbench/tasks";
import { createPlay } from "@/lib/play/create";
import { getRunManager } from "@/lib/runs/active";

export const dynamic = "force-dynamic";

const newPlaySchema = z.object({
  benchmark: z.enum(BENCHMARKS),
  taskId: z.coerce.number().int().positive().optional(),
  seat: z.enum(["agent", "simulator", "both"]),
  opponent: z.string().trim().optional(),
});

/** Starts an episode with a person in one seat (or both); answers with each seat's page. */
export async function POST(request: Request) {
  const body = await jsonBody(request);
  if (!body.ok) return body.response;
  const parsed = newPlaySchema.safeParse(body.value);
  if (!parsed.success) {
    return Response.json({ error: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") }, { status: 400 });
  }
  try {
    const session = await createPlay(await getStore(), getRunManager(), parsed.data);
    return Response.json(
      session,
      { status: 201 },
    );
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 400 });
  }
}
