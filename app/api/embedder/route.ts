import { chooseFrontendEmbedder } from "@/lib/scoring/frontend/embedders/choose";

export const dynamic = "force-dynamic";

/** Which embedder a frontend run made now would score with, and why (the run form shows it). */
export async function GET() {
  return Response.json(await chooseFrontendEmbedder({}, { timeoutMs: 4000 }));
}
