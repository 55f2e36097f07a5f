import type { Metadata } from "next";
import { formatBytes, hubSettings, listCached } from "@/lib/hub";
import { PageHeader } from "@/components/PageHeader";
import { DataTable } from "@/components/DataTable";
import { EmptyState } from "@/components/EmptyState";
import { DeleteCached } from "@/components/CachedModels";
import { chooseFrontendEmbedder, CLIP_HUB_ID } from "@/lib/scoring/frontend/embedders/choose";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Models" };

export default async function ModelsPage() {
  const settings = hubSettings();
  const { cacheDir, repos } = listCached();
  // What the next frontend run would score with, as the New run form and `colbench doctor` say it.
  const next = await chooseFrontendEmbedder({}, { timeoutMs: 2000 });
  return (
    <>
      <PageHeader title="Models">
        Weights and data the studio fetched by name (CLIP ViT-B/32 for frontend scores, the official task files), kept
        in the Hugging Face cache that Python&apos;s transformers and huggingface_hub share:{" "}
        <code className="font-mono">{cacheDir}</code>
        {settings.offline
          ? " (HF_HUB_OFFLINE is set: nothing is downloaded)"
          : `, downloaded from ${settings.endpoint}`}
        .
      </PageHeader>
      <p
        className={`mb-4 rounded-lg border p-3 text-sm ${next.embedder === "default" ? "border-amber-300 bg-amber-50 text-amber-900" : "border-teal-200 bg-teal-50 text-teal-900"}`}
        data-testid="models-clip"
      >
        The next frontend run scores similarity with {next.reason}.
        {next.embedder === "default"
          ? ` Nothing is fetched while this machine is offline: to score with CLIP, run \`npx colbench models download ${CLIP_HUB_ID}\` on a machine with internet and copy its cache folder here, or set COLBENCH_CLIP to a folder holding config.json and model.safetensors.`
          : ""}
      </p>
      {repos.length ? (
        <DataTable
          testId="models-table"
          rows={repos}
          rowKey={(r) => r.id}
          columns={[
            { header: "Repository", cell: (r) => <code className="font-mono">{r.id}</code> },
            { header: "Kind", className: "text-stone-500", cell: (r) => r.type },
            {
              header: "Size",
              numeric: true,
              className: "whitespace-nowrap",
              cell: (r) => (
                <>
                  {formatBytes(r.size)}
                  {r.partial ? (
                    <span className="block text-xs text-stone-500">+ {formatBytes(r.partial)} partial</span>
                  ) : null}
                </>
              ),
            },
            {
              header: "Revision",
              cell: (r) => (
                <ul>
                  {r.revisions.map((rev) => (
                    <li key={rev.commit} className="text-xs text-stone-600">
                      {rev.refs.length ? (
                        <span className="mr-1 rounded bg-stone-100 px-1">{rev.refs.join(", ")}</span>
                      ) : null}
                      <code className="font-mono" title={rev.commit}>
                        {rev.commit.slice(0, 10)}
                      </code>{" "}
                      · {rev.files.length} file{rev.files.length === 1 ? "" : "s"} ({rev.files.slice(0, 3).join(", ")}
                      {rev.files.length > 3 ? ", …" : ""})
                    </li>
                  ))}
                </ul>
              ),
            },
            {
              header: "Changed",
              className: "whitespace-nowrap text-stone-500",
              cell: (r) => r.lastModified.slice(0, 10),
            },
            { header: "", cell: (r) => <DeleteCached id={r.id} /> },
          ]}
        />
      ) : (
        <EmptyState title="Nothing cached yet">
          {settings.offline ? (
            <>
              Offline (HF_HUB_OFFLINE), nothing is fetched: frontend runs score with the weight-free default-v2 until{" "}
              <code className="font-mono">openai/clip-vit-base-patch32</code> is copied into this cache.
            </>
          ) : (
            <>
              Frontend runs fetch <code className="font-mono">openai/clip-vit-base-patch32</code> here when they first
              score, if the hub can be reached; fetch it ahead with{" "}
              <code className="font-mono">npx colbench models download openai/clip-vit-base-patch32</code>.
            </>
          )}
        </EmptyState>
      )}
    </>
  );
}
