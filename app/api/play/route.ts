import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { getStore } from "@/lib/store";
import { BENCHMARKS } from "@/lib/benchmarks";
import { createPlay } from "@/lib/play/create";
import { getRunManager } from "@/lib/runs/active";
import { studioOrigin } from "@/app/_lib/viewer";

export const dynamic = "force-dynamic";

// Fields beyond these are the benchmark's own run options (a judge, say), checked by its module.
const newPlaySchema = z
  .object({
    benchmark: z.enum(BENCHMARKS),
    taskId: z.coerce.number().int().positive().optional(),
    seat: z.enum(["agent", "simulator", "both"]),
    opponent: z.string().trim().optional(),
    // The agent in this tab (opponent "tab"): its sampling, as the form's fields.
    tabTemperature: z.coerce.number().min(0).optional(),
    tabTopP: z.coerce.number().gt(0).max(1).optional(),
    tabSeed: z.coerce.number().int().optional(),
    tabMaxTokens: z.coerce.number().int().positive().max(8192).optional(),
  })
  .loose();

/**
 * Starts an episode with a person in one seat (or both); answers with the caller's own seat and the
 * link of the seat they hand to someone else, its key shown this once.
 */
export async function POST(request: Request) {
  const body = await jsonBody(request);
  if (!body.ok) return body.response;
  const parsed = newPlaySchema.safeParse(body.value);
  if (!parsed.success) {
    return Response.json(
      { error: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") },
      { status: 400 },
    );
  }
  try {
    const { benchmark, taskId, seat, opponent, tabTemperature, tabTopP, tabSeed, tabMaxTokens, ...options } =
      parsed.data;
    const tab = {
      temperature: tabTemperature ?? 0,
      topP: tabTopP ?? 1,
      seed: tabSeed ?? 0,
      maxTokens: tabMaxTokens ?? 256,
    };
    const session = await createPlay(await getStore(), getRunManager(), {
      benchmark,
      taskId,
      seat,
      opponent,
      tab,
      options,
    });
    const origin = studioOrigin(request);
    return Response.json(
      { ...session, links: session.links.map((l) => ({ ...l, link: `${origin}${l.url}` })) },
      { status: 201 },
    );
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 400 });
  }
}
