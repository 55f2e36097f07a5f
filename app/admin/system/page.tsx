import type { Metadata } from "next";
import { checkRunning, lastReport } from "@/lib/doctor/last-report";
import { SystemRecheck } from "@/components/admin/SystemRecheck";
import { checkSystem } from "./doctor";
import type { Part } from "@/lib/doctor/types";
import { PageHeader } from "@/components/PageHeader";
import { DataTable } from "@/components/DataTable";
import { PartStatusBadge } from "@/components/admin/PartStatus";
import { revalidatePath } from "next/cache";
import { backupInto, backupSchedule, lastBackups, listBackups } from "@/lib/db/backup/service";
import { backupSettings } from "@/lib/db/backup/settings";
import { dataDir } from "@/lib/paths";
import { getDatabase } from "@/lib/db";

async function backUpNow() {
  "use server";
  // Only admins reach this page (the gate); the action posts to the page's own path.
  const settings = backupSettings();
  await backupInto(await getDatabase(), settings.dir, {
    keep: settings.keep,
    renders: settings.renders,
    dataDir: dataDir(),
    by: "System page",
  }).catch(() => {
    // Recorded with its error in the list below.
  });
  revalidatePath("/admin/system");
}

const utc = (iso: string) => `${new Date(iso).toLocaleString("en-GB", { timeZone: "UTC" })} UTC`;

/** "6 h", "30 min", "1 d", "90 s": how `--backup-every` was given, read back. */
function every(ms: number): string {
  for (const [unit, size] of [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["min", 60_000],
  ] as const)
    if (ms % size === 0) return `${ms / size} ${unit}`;
  return `${ms / 1000} s`;
}

async function BackupsPanel() {
  const settings = backupSettings();
  // What is in the folder now: backups.jsonl still lists the ones rotation deleted.
  const files = await listBackups(settings.dir);
  const lastRecord = lastBackups(dataDir(), 1)[0];
  const schedule = backupSchedule();
  return (
    <section className="mt-8" data-testid="system-backups">
      <h2 className="mb-2 text-base font-semibold text-stone-800">Backups</h2>
      <p className="mb-3 text-sm text-stone-600" data-testid="backup-schedule">
        {schedule ? (
          `Scheduled: a backup every ${every(schedule.everyMs)} into ${schedule.dir}, keeping the newest ${schedule.keep ?? "all"}; the next starts ${utc(schedule.nextAt)}.`
        ) : (
          <>
            No backups are scheduled: this studio was started without <code>--backup-every</code> (restart it with{" "}
            <code>npx colbench serve --backup-every 6h --keep {settings.keep}</code> to take them).
          </>
        )}{" "}
        Restore one with <code>npx colbench db restore FILE --into DIR</code> (or a PostgreSQL URL).
      </p>
      {lastRecord?.error ? (
        <p className="mb-3 text-sm text-red-800" data-testid="backup-failed">
          The last backup, started {utc(lastRecord.takenAt)} by {lastRecord.by}, failed: {lastRecord.error}
        </p>
      ) : null}
      <form action={backUpNow} className="mb-3">
        <button
          type="submit"
          className="rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium text-stone-800 hover:bg-stone-50"
          data-testid="backup-now"
        >
          Back up now into {settings.dir}
        </button>
      </form>
      {files.length ? (
        <ul className="text-xs text-stone-600" data-testid="backup-files">
          {files.map((f) => (
            <li key={f.name}>
              {f.name}: {(f.bytes / 1e6).toFixed(2)} MB, taken {utc(f.takenAt)}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-stone-500" data-testid="backup-files">
          No backup in {settings.dir}.
        </p>
      )}
    </section>
  );
}

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "System" };

/** A report older than this is checked again in the background when the page is opened. */
const STALE_MS = 60_000;

/** Read at each request: this page is rendered on the server for every visit, never cached. */
function isStale(report: ReturnType<typeof lastReport>): boolean {
  return !report || Date.now() - Date.parse(report.at) > STALE_MS;
}

export default async function SystemPage() {
  // The last report at once; the checks (seconds) run in the background and the button shows their result.
  const report = lastReport();
  const stale = isStale(report);
  if (stale) void checkSystem().catch(() => {});
  // checkSystem opens the database before its check is in flight: a check this page started counts as running.
  const running = stale || checkRunning();
  if (!report) {
    return (
      <>
        <PageHeader title="System">
          What this machine gives the studio, part by part, as <code>npx colbench doctor</code> reports it.
        </PageHeader>
        <p
          className="mb-4 rounded-lg border border-stone-200 bg-stone-50 p-3 text-sm text-stone-700"
          data-testid="system-verdict"
        >
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
        What this machine gives the studio, part by part, as <code>npx colbench doctor</code> reports it (run it in a
        terminal when something fails; add <code>--json</code> for scripts). Checked{" "}
        {new Date(report.at).toLocaleString("en-GB", { timeZone: "UTC" })} UTC in {(report.tookMs / 1000).toFixed(1)} s
        {running ? "; checking again in the background" : ""}. <SystemRecheck running={running} />
      </PageHeader>
      <p
        className={`mb-4 rounded-lg border p-3 text-sm ${missing.length ? "border-red-200 bg-red-50 text-red-800" : "border-teal-200 bg-teal-50 text-teal-900"}`}
        data-testid="system-verdict"
      >
        {missing.length
          ? `The studio cannot work without: ${missing.map((p) => p.name).join(", ")}.`
          : "Everything the studio needs is here."}
      </p>
      <DataTable<Part>
        testId="system-parts"
        rows={report.parts}
        rowKey={(p) => `${p.id}:${p.name}`}
        columns={[
          { header: "Status", cell: (p) => <PartStatusBadge status={p.status} /> },
          {
            header: "Part",
            className: "whitespace-nowrap font-medium text-stone-800",
            cell: (p) => p.name + (p.required ? "" : " (optional)"),
          },
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
