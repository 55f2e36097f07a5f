import type { Database } from "../db/open";
import { storeFor } from "../store";
import type { RunServer } from "../store/system";
import { checkChromium, checkFirefox } from "./browsers";
import { checkDatabase } from "./database";
import { checkModelServer } from "./model-servers";
import { checkPython } from "./python";
import { checkRenderCache } from "./render-cache";
import { checkNode, checkPostgres } from "./runtime";
import { part, type DoctorReport, type Part } from "./types";
import { checkWebGpu } from "./webgpu";
import { checkClip } from "./clip";
import { checkBuild } from "./build";
import { checkDataFolder } from "./data-folder";
import { checkPackages } from "./packages";

export type { DoctorReport, Part, PartStatus } from "./types";
export { probeWebGpu } from "./webgpu";

export interface DoctorOptions {
  /** The caller's open database (the studio's); else `open` reaches it for the check and closes it. */
  db?: Database;
  open: () => Promise<Database>;
  /** A module exporting `openAdapter()` for the WebGPU check (lib/gpu's); default: Dawn's own ways. */
  webgpuOpener?: string;
  /** The studio compiles pages on demand (`colbench serve --dev`): no production build is needed. */
  dev?: boolean;
}

/**
 * Every part of the machine the studio uses, checked side by side; one Part per line of the report.
 * The studio's server runs this in its own process, so no check may wait synchronously: each runs its
 * programs as child processes with a deadline.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const started = performance.now();
  let servers: RunServer[] = [];
  const database = checkDatabase(options.db, async () => {
    const db = await options.open();
    servers = await storeFor(db.prisma)
      .system.runServers()
      .catch(() => []);
    return db;
  });
  const fromOwnDb = options.db
    ? storeFor(options.db.prisma)
        .system.runServers()
        .catch(() => [] as RunServer[])
    : undefined;
  const [packages, build, dataFolder, chromium, firefox, python, postgres, webgpu, cache, databasePart, clip] =
    await Promise.all([
      checkPackages(),
      checkBuild({ dev: options.dev }),
      checkDataFolder(),
      checkChromium(),
      checkFirefox(),
      checkPython(),
      checkPostgres(),
      checkWebGpu({ opener: options.webgpuOpener }),
      checkRenderCache(),
      database,
      checkClip(),
    ]);
  if (fromOwnDb) servers = await fromOwnDb;
  const modelServers = servers.length
    ? await Promise.all(servers.map((server) => checkModelServer(server)))
    : [
        part({
          id: "model-server",
          name: "Model servers",
          status: "ok",
          required: false,
          summary: "no saved run names a model server yet",
        }),
      ];
  const parts: Part[] = [
    checkNode(),
    packages,
    build,
    dataFolder,
    chromium,
    firefox,
    ...python,
    postgres,
    databasePart,
    webgpu,
    clip,
    ...modelServers,
    cache,
  ];
  return {
    version: 1,
    ok: !parts.some((p) => p.required && p.status === "missing"),
    parts,
    at: new Date().toISOString(),
    tookMs: Math.round(performance.now() - started),
  };
}

/** The report for a terminal: one line per part, its fix beneath when it has one, and a verdict. */
export function formatReport(report: DoctorReport): string {
  const width = Math.max(...report.parts.map((p) => p.name.length));
  const lines: string[] = [];
  for (const p of report.parts) {
    lines.push(`${p.status.padEnd(8)}  ${p.name.padEnd(width)}  ${p.summary}`);
    if (p.fix) lines.push(`${" ".repeat(10 + width + 2)}fix: ${p.fix}`);
  }
  const missing = report.parts.filter((p) => p.required && p.status === "missing");
  lines.push(
    missing.length
      ? `The studio cannot work without: ${missing.map((p) => p.name).join(", ")} (see the fixes above).`
      : `Everything the studio needs is here${report.parts.some((p) => p.status !== "ok") ? " (some optional parts are missing or degraded)" : ""}. (${(report.tookMs / 1000).toFixed(1)} s)`,
  );
  return lines.join("\n");
}
