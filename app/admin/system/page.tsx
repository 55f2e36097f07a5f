import type { Metadata } from "next";
import { checkRunning, lastReport } from "@/lib/doctor/last-report";
import { SystemRecheck } from "@/components/admin/SystemRecheck";
import { checkSystem } from "./doctor";
import type { Part } from "@/lib/doctor/types";
import { PageHeader } from "@/components/PageHeader";
import { DataTable } from "@/components/DataTable";
import { PartStatusBadge } from "@/components/admin/PartStatus";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "System" };

/** A report older than this is checked again in the background when the page is opened. */
const STALE_MS = 60_000;

export default async function SystemPage() {
  // The last report at once; the checks (seconds) run in the background and the button shows their result.
  const report = lastReport();
  if (!report || Date.now() - Date.parse(report.at) > STALE_MS) void checkSystem().catch(() => {});
  const running = checkRunning();
  if (!report) {
    return (
      <>
        <PageHeader title="System">
          What this machine gives the studio, part by part, as <code>npx colbench doctor</code> reports it.
        </PageHeader>
        <p className="mb-4 rounded-lg border border-stone-200 bg-stone-50 p-3 text-sm text-stone-700" data-testid="system-verdict">
          No check has run in this studio yet: checking now (Python, the browsers and WebGPU take a few seconds).{" "}
          <SystemRecheck running={running} />
        </p>
      </>
    );
  }
  const missing = report.parts.filter((p) => p.required && p.status === "missing");
  return (
    <>
      <PageHeader title="System">
        What this machine gives the studio, part by part, as <code>npx colbench doctor</code> reports it (run it in a terminal when something fails; add{" "}
        <code>--json</code> for scripts). Checked {new Date(report.at).toLocaleString("en-GB", { timeZone: "UTC" })} UTC in {(report.tookMs / 1000).toFixed(1)} s
        {running ? "; checking again in the background" : ""}. <SystemRecheck running={running} />
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
