import { requestViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";
import { getStore } from "@/lib/store";
import { answersArePages } from "@/app/_lib/answer-kind";

export const dynamic = "force-dynamic";

/** Ground truth and tests: for reviewers and simulator-role clients, never for agent-role pages. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  // The gate keeps annotators and seat links away already; this route says so itself too.
  if (!seesHidden(requestViewer(request)))
    return Response.json({ error: "hidden information is for researchers and admins" }, { status: 403 });
  const id = Number.parseInt((await params).id, 10);
  const store = await getStore();
  const task = Number.isSafeInteger(id) ? await store.tasks.get(id) : null;
  if (!task) return Response.json({ error: "no such task" }, { status: 404 });
  const scoredRender = answersArePages(task.benchmark) ? await store.tasks.scoredTargetRender(id) : null;
  return Response.json(
    {
      groundTruth: task.groundTruth,
      hiddenInformation: task.hiddenInformation,
      testCases: task.testCases,
      scoredRender,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}
