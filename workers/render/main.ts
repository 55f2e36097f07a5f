// The render worker process: owns Chromium and answers render jobs from its parent over the
// IPC channel (started by lib/scoring/frontend/render.ts with `node --import tsx`). Options come as JSON
// in the first argument. It exits when told to close or when its parent goes away.

import type { FromWorker, RenderJob, ToWorker, WorkerOptions } from "../../lib/scoring/frontend/render-protocol";
import { ChromiumPool } from "./pool";

function send(message: FromWorker): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  if (!process.send) throw new Error("the render worker must be started with an IPC channel");
  const options = JSON.parse(process.argv[2] ?? "{}") as WorkerOptions;
  const pool = await ChromiumPool.start({
    executablePath: options.executablePath,
    concurrency: options.concurrency,
    subsetTailwind: options.subsetTailwind,
    memoizeImages: true,
    captureTimeoutMs: options.captureTimeoutMs,
    ...(options.profileRoot ? { profileRoot: options.profileRoot } : {}),
  });

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await pool.close();
    process.exit(0);
  };
  process.on("disconnect", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
  process.on("SIGINT", () => void shutdown());

  process.on("message", (message: ToWorker) => {
    if (message.type === "close") {
      void shutdown();
      return;
    }
    const job: RenderJob = message;
    pool.render(job.html, job.settings, job.deadlineMs).then((r) => {
      send({
        type: "result",
        reqId: job.reqId,
        status: r.status,
        png: r.png,
        width: r.width,
        height: r.height,
        aborted: r.aborted,
        blocked: r.blocked,
        ...(r.error ? { error: r.error } : {}),
      });
    });
  });
  send({ type: "ready", browserVersion: pool.browserVersion });
}

main().catch((error: unknown) => {
  send({ type: "fatal", error: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
  setTimeout(() => process.exit(1), 100);
});
