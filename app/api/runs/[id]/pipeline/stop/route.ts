import { getPipelineJobs } from "@/lib/sweet/jobs";

/** Stops the step working on a run; starting it again continues where it stopped. */
export async function POST(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const runId = Number.parseInt((await params).id, 10);
  await getPipelineJobs().stop(runId);
  return Response.json({ stopped: runId });
}
