import { Command } from "commander";
import { openDatabase } from "../../lib/db/open";
import { formatReport, runDoctor } from "../../lib/doctor";
import { action } from "../errors";

export function register(program: Command): void {
  program
    .command("doctor")
    .description(
      "check every part the studio uses (Node, Chromium, Python and its sandbox, the database, WebGPU, model servers…): one line each with what to do; exit status 1 when a part the studio needs is missing",
    )
    .option("--json", "print the report as JSON (its shape is documented in README.md)")
    .action(
      action(async (opts: { json?: boolean }) => {
        const report = await runDoctor({
          // Read-only: no migrations, and no take-over of the folder if its owner exits meanwhile.
          open: () => openDatabase({ command: "colbench doctor", migrate: false, takeOver: false }),
          webgpuOpener: process.env.COLBENCH_WEBGPU_OPENER || undefined,
        });
        console.log(opts.json ? JSON.stringify(report, null, 2) : formatReport(report));
        if (!report.ok) process.exitCode = 1;
      }),
    );
}
