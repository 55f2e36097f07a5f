import { getDatabase } from "@/lib/db";
import { getStore } from "@/lib/store";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    const db = await getDatabase();
    const counts = await (await getStore()).tasks.counts();
    return Response.json({
      ok: true,
      database: { kind: db.kind, role: db.role, location: db.location },
      // One count per registered benchmark by its name, then by split.
      tasks: { ...counts.byBenchmark, bySplit: counts.splits },
    });
  } catch (error) {
    return Response.json({ ok: false, error: (error as Error).message }, { status: 503 });
  }
}
