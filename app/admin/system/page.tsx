import type { Metadata } from "next";
import { getDatabase } from "@/lib/db";
import { runDoctor } from "@/lib/doctor";
import type { Part } from "@/lib/doctor/types";
import { PageHeader } from "@/components/PageHeader";
import { DataTable } from "@/components/DataTable";
import { PartStatusBadge } from "@/components/admin/PartStatus";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "System" };

export default async function SystemPage() {
  // The same checks as `colbench doctor`, run by the studio's own process on its own database.
  const db = await getDatabase();
  const report = await runDoctor({ db, open: async () => db, webgpuOpener: process.env.COLBENCH_WEBGPU_OPENER || undefined });
  const missing = report.parts.filter((p) => p.required && p.status === "missing");
  return (
    <>
      <PageHeader title="System">
        What this machine gives the studio, part by part, as <code>npx colbench doctor</code> reports it (run it in a terminal when something fails; add{" "}
        <code>--json</code> for scripts). Checked {new Date(report.at).toLocaleString("en-GB", { timeZone: "UTC" })} UTC in {(report.tookMs / 1000).toFixed(1)} s; reload to check again.
      </PageHeader>
      <p className={`mb-4 rounded-lg border p-3 text-sm ${missing.length ? "border-red-200 bg-red-50 text-red-800" : "border-teal-200 bg-teal-50 text-teal-900"}`} data-testid="system-verdict">
        {missing.length ? `The studio cannot work without: ${missing.map((p) => p.name).join(", ")}.` : "Everything the studio needs is here."}
      </p>
      <DataTable<Part>
        testId="system-parts"
        rows={report.parts}
        rowKey={(p) => `${p.id}:${p.name}`}
        columns={[
          { header: "Status", cell: (p) => <PartStatusBadge status={p.status} /> },
          { header: "Part", className: "whitespace-nowrap font-medium text-stone-800", cell: (p) => p.name + (p.required ? "" : " (optional)") },
          {
            header: "Found",
            cell: (p) => (
              <>
                <span className="text-stone-700">{p.summary}</span>
                {p.fix ? <span className="mt-1 block text-stone-500">Fix: {p.fix}</span> : null}
              </>
            ),
          },
        ]}
      />
    </>
  );
}
