import { parentPort, workerData } from "node:worker_threads";
import { writeBackup, type BackupOptions, type BackupSource } from "./write";

// The backup thread's work (started by ./write-thread.ts): writes the backup and sends back its
// result, or its error's message.

const { source, file, options } = workerData as { source: BackupSource; file: string; options: BackupOptions };
try {
  parentPort!.postMessage({ result: await writeBackup(source, file, options) });
} catch (error) {
  parentPort!.postMessage({
    error: { message: (error as Error).message ?? String(error), stack: (error as Error).stack },
  });
}
