import { requestViewer } from "@/app/_lib/viewer";
import { mayViewTarget } from "@/lib/access/renders";
import { getStore } from "@/lib/store";
import { answersArePages } from "@/app/_lib/answer-kind";
import { PREVIEW_CSP, rewriteForOfflinePreview } from "@/lib/colbench/offline-html";

export const dynamic = "force-dynamic";

/**
 * The target page of a task whose answers are pages, for a sandboxed iframe (renders come with the render pool):
 * for researchers, admins, and the collaborator seat of an episode of this task.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const id = Number.parseInt((await params).id, 10);
  const store = await getStore();
  // The gate lets collaborator seats ask; this route says which task is theirs.
  if (
    !(await mayViewTarget(
      requestViewer(request),
      id,
      async (episodeId) => (await store.seats.target(episodeId))?.taskId ?? null,
    ))
  ) {
    return Response.json(
      { error: "a target page is for researchers, admins and that task's collaborator seat" },
      { status: 403 },
    );
  }
  const task = Number.isSafeInteger(id) ? await store.tasks.get(id) : null;
  if (!task || !answersArePages(task.benchmark))
    return new Response("no such task with a target page", { status: 404 });
  return new Response(rewriteForOfflinePreview(task.groundTruth), {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": PREVIEW_CSP,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
    },
  });
}
