import { requestViewer } from "@/app/_lib/viewer";
import { seesHidden } from "@/lib/access/viewer";
import { getStore } from "@/lib/store";
import { PREVIEW_CSP, rewriteForOfflinePreview } from "@/lib/colbench/offline-html";

export const dynamic = "force-dynamic";

/** The target page of a frontend task, for a sandboxed iframe (renders come with the render pool). */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  // The gate keeps annotators and seat links away already; this route says so itself too.
  if (!seesHidden(requestViewer(request))) return Response.json({ error: "hidden information is for researchers and admins" }, { status: 403 });
  const id = Number.parseInt((await params).id, 10);
  const task = Number.isSafeInteger(id) ? await (await getStore()).tasks.get(id) : null;
  if (!task || task.benchmark !== "frontend") return new Response("no such frontend task", { status: 404 });
  return new Response(rewriteForOfflinePreview(task.groundTruth), {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": PREVIEW_CSP,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
    },
  });
}
