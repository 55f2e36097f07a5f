import type { Metadata } from "next";
import { checkRunning, lastReport } from "@/lib/doctor/last-report";
import { SystemRecheck } from "@/components/admin/SystemRecheck";
import { checkSystem } from "./doctor";
import type { Part } from "@/lib/doctor/types";
import { PageHeader } from "@/components/PageHeader";
import { DataTable } from "@/components/DataTable";
import { PartStatusBadge } from "@/components/admin/PartStatus";
import { revalidatePath } from "next/cache";
import { backupInto, lastBackups } from "@/lib/db/backup/service";
import { backupSettings } from "@/lib/db/backup/settings";
import { dataDir } from "@/lib/paths";
import { getDatabase } from "@/lib/db";

async function backUpNow() {
  "use server";
  // Only admins reach this page (the gate); the action posts to the page's own path.
  const settings = backupSettings();
  await backupInto(await getDatabase(), settings.dir, { keep: settings.keep, renders: settings.renders, dataDir: dataDir(), by: "System page" }).catch(() => {
    // Recorded with its error in the list below.
  });
  revalidatePath("/admin/system");
}

function BackupsPanel() {
  const records = lastBackups(dataDir()).reverse();
  const settings = backupSettings();
  const last = records[0];
  return (
    <section className="mt-8" data-testid="system-backups">
      <h2 className="mb-2 text-base font-semibold text-stone-800">Backups</h2>
      <p className="mb-3 text-sm text-stone-600">
        {last
          ? last.error
            ? `The last backup, started ${new Date(last.takenAt).toLocaleString("en-GB", { timeZone: "UTC" })} UTC, failed: ${last.error}`
            : `Last backup: ${last.file}, as of ${new Date(last.takenAt).toLocaleString("en-GB", { timeZone: "UTC" })} UTC (${last.rows} rows, ${(last.bytes / 1e6).toFixed(2)} MB, by ${last.by}).`
          : "No backup has been taken on this machine."}{" "}
        Restore one with <code>npx colbench db restore FILE --into DIR</code> (or a PostgreSQL URL). Scheduled backups:{" "}
        <code>colbench serve --backup-every 6h --keep 14</code>.
      </p>
      <form action={backUpNow} className="mb-3">
        <button type="submit" className="rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium text-stone-800 hover:bg-stone-50" data-testid="backup-now">
          Back up now into {settings.dir}
        </button>
      </form>
      {records.length > 1 ? (
        <ul className="text-xs text-stone-500">
          {records.slice(1).map((r) => (
            <li key={r.file + r.takenAt}>
              {r.takenAt} {r.error ? `failed: ${r.error}` : `${r.file} (${r.rows} rows, ${(r.bytes / 1e6).toFixed(2)} MB, ${r.by})`}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "System" };

/** A report older than this is checked again in the background when the page is opened. */
const STALE_MS = 60_000;

export default async function SystemPage() {
  // The last report at once; the checks (seconds) run in the background and the button shows their result.
  const report = lastReport();
  const stale = !report || Date.now() - Date.parse(report.at) > STALE_MS;
  if (stale) void checkSystem().catch(() => {});
  // checkSystem opens the database before its check is in flight: a check this page started counts as running.
  const running = stale || checkRunning();
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
      <BackupsPanel />
    </>
  );
}
