import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { eventStream } from "@/lib/http/event-stream";
import { getOfficialImports } from "@/lib/official/jobs";
import { OFFICIAL_SPLITS } from "@/lib/benchmarks/official";

export const dynamic = "force-dynamic";

const startSchema = z.object({ split: z.enum(OFFICIAL_SPLITS).default("test") });

/** Starts importing the benchmark's own task files from the hub; the same as `colbench import --official`. */
export async function POST(request: Request) {
  const json = await jsonBody(request);
  if (!json.ok) return json.response;
  const parsed = startSchema.safeParse(json.value ?? {});
  if (!parsed.success)
    return Response.json(
      { error: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") },
      { status: 400 },
    );
  try {
    getOfficialImports().start(parsed.data.split);
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 409 });
  }
  return Response.json({ started: parsed.data.split }, { status: 202 });
}

/** The import's progress as it happens (server-sent events), starting with where it stands. */
export async function GET(request: Request) {
  const jobs = getOfficialImports();
  return eventStream(request, (send) => {
    send("import", jobs.status());
    return jobs.subscribe((state) => send("import", state));
  });
}
