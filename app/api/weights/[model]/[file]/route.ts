import fs from "node:fs";
import { Readable } from "node:stream";
import { servedFile } from "@/lib/gpu/node/served-weights";
import { parseByteRange } from "@/lib/http/byte-range";
import { requestViewer } from "@/app/_lib/viewer";
import { collaboratorEpisodes } from "@/lib/access/renders";
import { seesHidden } from "@/lib/access/viewer";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ model: string; file: string }> };

/**
 * A file of the policy, critic or CLIP folder the studio serves (`colbench serve --critic-weights DIR`,
 * `--clip-weights DIR`), for a browser that computes on its own GPU; researchers and admins, and for
 * CLIP also collaborator seat links (lib/access/policy.ts).
 */
async function serve(request: Request, { params }: Params, body: boolean): Promise<Response> {
  const { model, file } = await params;
  // The route checks the viewer itself too, whatever reached it: researchers and admins, and CLIP for a collaborator seat.
  const viewer = requestViewer(request);
  // The policy too for a collaborator's seat: its tab may generate the agent's turns with it.
  if (!seesHidden(viewer) && !((model === "clip" || model === "policy") && collaboratorEpisodes(viewer).length > 0)) {
    return Response.json(
      { error: "served weights are for researchers and admins (CLIP's and the policy's also for a collaborator seat)" },
      { status: 403 },
    );
  }
  const found = servedFile(model, file);
  if (!found)
    return Response.json(
      { error: `no ${file} in a served ${model} folder (start the studio with --${model}-weights DIR)` },
      { status: 404 },
    );
  const type = file.endsWith(".json") ? "application/json" : "application/octet-stream";
  // The ETag (size and time of the file) lets a tab keep the weights in its cache and know them unchanged.
  const stat = fs.statSync(found);
  const size = stat.size;
  const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  const headers = {
    "Content-Type": type,
    "Cache-Control": "private, no-cache",
    "Accept-Ranges": "bytes",
    ETag: etag,
    // Next's server drops Content-Length from a route's answer (HEAD included): the size a page shows progress against.
    "X-File-Size": String(size),
  };
  // A page that needs only part of a checkpoint (CLIP's vision tower sits after its text tower) asks
  // for the bytes from there on.
  const range = parseByteRange(request.headers.get("range"), size);
  if (range === "unsatisfiable")
    return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${size}` } });
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const partHeaders = {
    ...headers,
    "Content-Length": String(end - start + 1),
    ...(range ? { "Content-Range": `bytes ${start}-${end}/${size}` } : {}),
  };
  const status = range ? 206 : 200;
  if (!body) return new Response(null, { status, headers: partHeaders });
  if (size === 0) return new Response(null, { status, headers: partHeaders });
  return new Response(
    Readable.toWeb(fs.createReadStream(found, { start, end, highWaterMark: 4 << 20 })) as ReadableStream,
    { status, headers: partHeaders },
  );
}

export function GET(request: Request, context: Params) {
  return serve(request, context, true);
}

export function HEAD(request: Request, context: Params) {
  return serve(request, context, false);
}
