// The render worker process: owns Chromium and answers render jobs from its parent over the
// IPC channel (started by lib/scoring/frontend/render.ts with `node --import tsx`). Options come as JSON
// in the first argument. It exits when told to close or when its parent goes away.

import { spawnSync } from "node:child_process";
import type { FromWorker, RenderJob, ToWorker, WorkerOptions } from "../../lib/scoring/frontend/render-protocol";
import type { Engine } from "./engine";
import { FirefoxPool } from "./firefox";
import { PlaceholderPhotos } from "./photo";
import { ChromiumPool } from "./pool";
import type { SlotResult } from "./slot";

function send(message: FromWorker): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  if (!process.send) throw new Error("the render worker must be started with an IPC channel");
  const options = JSON.parse(process.argv[2] ?? "{}") as WorkerOptions;
  if (options.loopbackUp) loopbackUp();
  const common = {
    executablePath: options.executablePath,
    concurrency: options.concurrency,
    subsetTailwind: options.subsetTailwind,
    memoizeImages: true,
    captureTimeoutMs: options.captureTimeoutMs,
    ...(options.memoryLimitBytes ? { memoryLimitBytes: options.memoryLimitBytes } : {}),
    ...(options.placeholderPhoto ? { photos: PlaceholderPhotos.fromFile(options.placeholderPhoto) } : {}),
    ...(options.profileRoot ? { profileRoot: options.profileRoot } : {}),
  };
  // Firefox keeps a stylesheet it parsed for the next document that asks for the same URL, so a
  // per-page subset would style the next page with the last page's rules: it gets the whole file
  // (parsed once, then shared, which is as cheap).
  const pool: Engine =
    options.browser === "firefox"
      ? await FirefoxPool.start({ ...common, subsetTailwind: false })
      : await ChromiumPool.start(common);

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
    // A render that throws (the pool closed under it) is still answered, so the parent's caller is not left waiting.
    const failed = (error: unknown): SlotResult => ({
      status: "failed",
      png: Buffer.alloc(0),
      width: 0,
      height: 0,
      aborted: 0,
      blocked: [],
      error: error instanceof Error ? error.message : String(error),
    });
    void pool
      .render(job.html, job.settings, job.deadlineMs)
      .catch(failed)
      .then((r) => {
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
          ...(r.retried ? { retried: r.retried } : {}),
          ...(r.verified ? { verified: r.verified } : {}),
        });
      });
  });
  send({ type: "ready", browserVersion: pool.browserVersion });
}

/**
 * Inside the worker's own network namespace the loopback interface starts down; Firefox's remote
 * agent needs it (puppeteer speaks BiDi over a WebSocket). It is this namespace's own loopback:
 * nothing of the machine's listens there.
 */
function loopbackUp(): void {
  const ip = spawnSync("ip", ["link", "set", "lo", "up"], { stdio: "ignore" });
  if (ip.status === 0) return;
  // Without iproute2: the same ioctl from Python (SIOCGIFFLAGS, then SIOCSIFFLAGS with IFF_UP).
  const py = spawnSync(
    "python3",
    [
      "-c",
      'import socket,fcntl,struct\ns=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)\nf=struct.unpack("16sH14s",fcntl.ioctl(s,0x8913,struct.pack("16sH14s",b"lo",0,b"")))[1]\nfcntl.ioctl(s,0x8914,struct.pack("16sH14s",b"lo",f|1,b""))',
    ],
    { stdio: "ignore" },
  );
  if (py.status !== 0)
    throw new Error(
      "could not bring up the render namespace's loopback interface (needs `ip` from iproute2, or python3)",
    );
}

main().catch((error: unknown) => {
  send({ type: "fatal", error: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
  setTimeout(() => process.exit(1), 100);
});
