import path from "node:path";
import { Worker } from "node:worker_threads";
import { projectRoot } from "../../paths";
import type { BackupOptions, BackupResult, BackupSource } from "./write";

// A backup written on a thread of its own, at a lower priority: the rows' parsing, their JSON and
// the compression never hold the event loop of the process that asked (the studio, for a scheduled
// backup or the System page's button), and on a busy machine the studio's threads come first. The
// worker is found from the project's root, not from this file, so that the web bundle starts it
// from the sources as the CLI does.

export function writeBackupApart(
  source: BackupSource,
  file: string,
  options: BackupOptions = {},
): Promise<BackupResult> {
  const entry = path.join(/*turbopackIgnore: true*/ projectRoot, "lib", "db", "backup", "write-worker.mjs");
  const worker = new Worker(entry, { workerData: { source, file, options } });
  return new Promise<BackupResult>((resolve, reject) => {
    let answered = false;
    worker.once("message", (message: { result?: BackupResult; error?: { message: string; stack?: string } }) => {
      answered = true;
      if (message.result) resolve(message.result);
      else reject(Object.assign(new Error(message.error!.message), { stack: message.error!.stack }));
    });
    worker.once("error", (error) => {
      answered = true;
      reject(error);
    });
    worker.once("exit", (code) => {
      if (!answered) reject(new Error(`the backup's thread ended without an answer (exit code ${code})`));
    });
  });
}
