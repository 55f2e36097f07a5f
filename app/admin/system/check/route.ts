import { checkSystem } from "../doctor";

export const dynamic = "force-dynamic";

/** Checks the machine again (or waits for the check in flight); the System page then shows the new report. */
export async function POST() {
  const report = await checkSystem();
  return Response.json({ at: report.at, ok: report.ok });
}
