import fs from "node:fs";
import { Readable } from "node:stream";
import { servedFile } from "@/lib/gpu/node/served-weights";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ model: string; file: string }> };

/**
 * A file of the policy, critic or CLIP folder the studio serves (`colbench serve --critic-weights DIR`,
 * `--clip-weights DIR`), for a browser that computes on its own GPU; researchers and admins, and for
 * CLIP also collaborator seat links (lib/access/policy.ts).
 */
async function serve(request: Request, { params }: Params, body: boolean): Promise<Response> {
  const { model, file } = await params;
  const found = servedFile(model, file);
  if (!found) return Response.json({ error: `no ${file} in a served ${model} folder (start the studio with --${model}-weights DIR)` }, { status: 404 });
  const size = fs.statSync(found).size;
  const headers = { "Content-Length": String(size), "Content-Type": file.endsWith(".json") ? "application/json" : "application/octet-stream", "Cache-Control": "private, no-cache" };
  if (!body) return new Response(null, { headers });
  return new Response(Readable.toWeb(fs.createReadStream(found, { highWaterMark: 4 << 20 })) as ReadableStream, { headers });
}

export function GET(request: Request, context: Params) {
  return serve(request, context, true);
}

export function HEAD(request: Request, context: Params) {
  return serve(request, context, false);
}
