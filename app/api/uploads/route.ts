import { z } from "zod";
import { jsonBody } from "@/lib/http/guard";
import { getStore } from "@/lib/store";
import { BENCHMARKS } from "@/lib/benchmarks";

export const dynamic = "force-dynamic";

// A file chosen in the browser arrives in parts of whole lines (each request stays under the
// studio's 1 MiB body limit) and is imported part by part with the CLI's own validation: every
// broken line is named FILE:LINE: field: problem and nothing of it is stored.

const part = {
  fileName: z.string().trim().min(1).max(300),
  /** The line number of the first of `lines` in the file. */
  firstLine: z.number().int().min(1),
  lines: z.array(z.string()).max(100_000),
};

const uploadSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("tasks"),
    benchmark: z.enum(BENCHMARKS),
    split: z.string().trim().min(1).max(40).default("test"),
    ...part,
  }),
  z.object({
    kind: z.literal("trajectories"),
    runName: z.string().trim().min(1).max(200),
    append: z.boolean().default(false),
    ...part,
  }),
]);

export async function POST(request: Request) {
  const body = await jsonBody(request);
  if (!body.ok) return body.response;
  const parsed = uploadSchema.safeParse(body.value);
  if (!parsed.success) {
    return Response.json(
      { error: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") },
      { status: 400 },
    );
  }
  const upload = parsed.data;
  const store = await getStore();
  try {
    if (upload.kind === "tasks") {
      const summary = await store.tasks.import({
        file: upload.fileName,
        lines: upload.lines,
        firstLine: upload.firstLine,
        benchmark: upload.benchmark,
        split: upload.split,
      });
      return Response.json(summary);
    }
    const summary = await store.trajectories.import(upload.fileName, {
      name: upload.runName,
      lines: upload.lines,
      firstLine: upload.firstLine,
      append: upload.append,
    });
    return Response.json(summary);
  } catch (error) {
    return Response.json({ error: (error as Error).message }, { status: 409 });
  }
}
