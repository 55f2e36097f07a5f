import { monacoFile } from "@/lib/http/monaco-files";

export const dynamic = "force-dynamic";

// Monaco's prebuilt editor (`monaco-editor/min/vs`) for the studio's code editors: public code,
// served from the installed package, so it works offline and follows the package's version.
export async function GET(_request: Request, { params }: { params: Promise<{ file: string[] }> }) {
  const found = await monacoFile((await params).file);
  if (!found.ok) return new Response(found.error, { status: 404 });
  return new Response(new Uint8Array(found.body), {
    headers: { "Content-Type": found.type, "Cache-Control": "public, max-age=86400" },
  });
}
