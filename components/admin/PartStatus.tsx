import type { PartStatus } from "@/lib/doctor/types";

const LOOK: Record<PartStatus, string> = {
  ok: "bg-teal-50 text-teal-800 ring-teal-200",
  degraded: "bg-amber-50 text-amber-800 ring-amber-200",
  missing: "bg-red-50 text-red-800 ring-red-200",
};

/** A part's status as `colbench doctor` prints it: ok, degraded or missing. */
export function PartStatusBadge({ status }: { status: PartStatus }) {
  return (
    <span className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${LOOK[status]}`}>
      {status}
    </span>
  );
}
