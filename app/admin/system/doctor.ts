import { getDatabase } from "@/lib/db";
import { runDoctor } from "@/lib/doctor";
import { refreshReport } from "@/lib/doctor/last-report";

/** The same checks as `colbench doctor`, run by the studio's own process on its own database (joins one in flight). */
export async function checkSystem() {
  const db = await getDatabase();
  return refreshReport(() =>
    runDoctor({
      db,
      open: async () => db,
      webgpuOpener: process.env.COLBENCH_WEBGPU_OPENER || undefined,
      dev: process.env.NODE_ENV === "development",
    }),
  );
}
