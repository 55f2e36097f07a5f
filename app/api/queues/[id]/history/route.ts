import { z } from "zod";
import { deskRequest } from "@/app/_lib/desk";
import { history } from "@/lib/label/desk";

export const dynamic = "force-dynamic";

/** This person's labels of the queue, latest first (a POST like every desk request: same-origin only). */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const got = await deskRequest(request, params, z.object({}));
  if (!got.ok) return got.response;
  return Response.json({ labels: await history(got.store, got.desk) });
}
