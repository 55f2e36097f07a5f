import type { DoctorReport } from "./types";
import { processSlot } from "../process-slot";

// The server process's last doctor report, so the System page shows it at once (the checks take
// seconds: Python, browsers, WebGPU in a child) and checks again in the background. One check at a
// time: a second caller joins the one in flight.

interface Held {
  report?: DoctorReport;
  running?: Promise<DoctorReport>;
}

const slot = processSlot<Held>("colbench.lastDoctorReport");
const held = (): Held => slot.getOrCreate(() => ({}));

export function lastReport(): DoctorReport | null {
  return held().report ?? null;
}

export function checkRunning(): boolean {
  return held().running !== undefined;
}

/** Runs the checks (or joins the run in flight) and keeps the report as the last one. */
export function refreshReport(run: () => Promise<DoctorReport>): Promise<DoctorReport> {
  const h = held();
  h.running ??= run()
    .then((report) => (h.report = report))
    .finally(() => (h.running = undefined));
  return h.running;
}
