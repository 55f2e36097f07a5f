import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import {
  encodeFrame,
  FrameDecoder,
  type HelloMessage,
  type ScoreReply,
  type ScoreRequest,
  type WorkerMessage,
} from "./protocol";

// One Python sandbox worker process (workers/python/worker.py). It works on one request at a
// time, in the order sent; answer code never runs here, nor in the worker: it forks a sandboxed
// child per answer.

export interface WorkerSpawnOptions {
  python: string;
  workerPath: string;
  /** Passed to the worker as its one argument: {limits?, preload?}. */
  config: Record<string, unknown>;
  /** How long start-up (isolation set-up, preloads) may take. */
  helloTimeoutMs?: number;
}

/** The worker process went away (or was killed) before answering. */
export class WorkerLostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkerLostError";
  }
}

/** The reason every test of an answer carries when the workers scoring it were lost. */
export function lostReason(error: WorkerLostError): string {
  return `error: sandbox worker lost (${error.message})`;
}

/** The worker handed the request back unstarted (it waited behind a slow one): send it elsewhere. */
export class RequestReleasedError extends Error {
  constructor() {
    super("the worker handed the request back");
    this.name = "RequestReleasedError";
  }
}

/** The worker answered the request with an error (a malformed request, not a failed answer). */
export class WorkerRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkerRequestError";
  }
}

interface InFlight {
  id: number;
  timeoutMs: number;
  resolve(reply: ScoreReply): void;
  split(tests: number[]): void;
  reject(error: WorkerLostError | WorkerRequestError | RequestReleasedError, started: boolean): void;
  timer: NodeJS.Timeout | null;
}

const STDERR_TAIL = 4096;

function workerEnv(): Record<string, string> {
  // Answers inherit the worker's environment: pass nothing secret (no API keys, no DATABASE_URL).
  // LD_BIND_NOW: symbols resolved once, in the zygote (which inherits this environment), not again
  // in every sandbox child (the dynamic linker's lazy binding writes to pages each child copies).
  const env: Record<string, string> = { LANG: "C.UTF-8", LD_BIND_NOW: "1" };
  if (process.env.PATH) env.PATH = process.env.PATH;
  return env;
}

export class SandboxWorker {
  private readonly decoder = new FrameDecoder();
  /** Sent and not yet answered, in order: the worker handles one at a time, the first one now. */
  private readonly inFlight: InFlight[] = [];
  private nextId = 1;
  private stderrTail = "";
  private exited = false;
  private readonly exitListeners: ((reason: string) => void)[] = [];
  private helloWaiter: { resolve(hello: HelloMessage): void; reject(error: Error): void } | null = null;
  hello!: HelloMessage;
  /** Handed requests back while on its current one (a slow answer): send it no more until that is done. */
  stalled = false;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on("data", (chunk: Buffer) => this.onData(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    // EPIPE after the worker died is reported through "exit"; nothing to do here.
    child.stdin.on("error", () => {});
    child.on("error", (error) => this.handleExit(`could not run the worker: ${error.message}`));
    child.on("exit", (code, signal) =>
      this.handleExit(signal ? `worker killed by ${signal}` : `worker exited with status ${code}`),
    );
  }

  static start(options: WorkerSpawnOptions): Promise<SandboxWorker> {
    const child = spawn(options.python, ["-S", "-E", options.workerPath, JSON.stringify(options.config)], {
      cwd: "/",
      env: workerEnv() as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const worker = new SandboxWorker(child);
    return new Promise<SandboxWorker>((resolve, reject) => {
      const timer = setTimeout(() => {
        worker.kill();
        reject(new Error(`the sandbox worker did not start within ${options.helloTimeoutMs ?? 30_000} ms`));
      }, options.helloTimeoutMs ?? 30_000);
      worker.helloWaiter = {
        resolve: (hello) => {
          clearTimeout(timer);
          worker.hello = hello;
          resolve(worker);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Requests sent and not yet answered. */
  get load(): number {
    return this.inFlight.length;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Calls listener once the process is gone, with a one-line reason. */
  whenExited(listener: (reason: string) => void): void {
    if (this.exited) queueMicrotask(() => listener(this.exitReason));
    else this.exitListeners.push(listener);
  }

  private exitReason = "";

  private handleExit(reason: string): void {
    if (this.exited) return;
    this.exited = true;
    const detail = this.stderrTail.trim()
      ? `${reason}: ${this.stderrTail.trim().split("\n").slice(-3).join(" | ")}`
      : reason;
    this.exitReason = detail;
    this.helloWaiter?.reject(new Error(`the sandbox worker failed to start (${detail})`));
    this.helloWaiter = null;
    const pending = this.inFlight.splice(0);
    // Last first: callers that requeue at the front then keep the original order.
    for (let i = pending.length - 1; i >= 0; i--) {
      const request = pending[i]!;
      if (request.timer) clearTimeout(request.timer);
      request.reject(new WorkerLostError(detail), i === 0);
    }
    for (const listener of this.exitListeners) listener(detail);
  }

  /**
   * Sends a request; more may follow before it is answered (the worker then finds the next one
   * waiting and never sits idle on a round trip). onLost(error, started) hears of a worker that
   * died or overran timeoutMs on its current request (it is killed then); `started` tells whether
   * this request was the one being worked on. onSplit hears which tests of a slow request the
   * worker left for another (before the reply, which lacks their results).
   */
  request(
    body: Omit<ScoreRequest, "id">,
    timeoutMs: number,
    onReply: (reply: ScoreReply) => void,
    onError: (error: WorkerLostError | WorkerRequestError | RequestReleasedError, started: boolean) => void,
    onSplit: (tests: number[]) => void = () => {},
  ): void {
    if (this.exited) {
      onError(new WorkerLostError("worker is not running"), false);
      return;
    }
    const id = this.nextId++;
    const frame = encodeFrame({ ...body, id });
    this.inFlight.push({ id, timeoutMs, resolve: onReply, reject: onError, split: onSplit, timer: null });
    if (this.inFlight.length === 1) this.startClock();
    this.child.stdin.write(frame);
  }

  private startClock(): void {
    const head = this.inFlight[0];
    if (!head) return;
    // The worker's own deadlines end every request long before this: past it, it is hung.
    head.timer = setTimeout(() => this.kill(), head.timeoutMs);
  }

  private onData(chunk: Buffer): void {
    let messages: unknown[];
    try {
      messages = this.decoder.push(chunk);
    } catch (error) {
      this.stderrTail += `\nprotocol error: ${(error as Error).message}`;
      this.kill();
      return;
    }
    // Replies come in batches; the requests they make room for go out in one write.
    this.child.stdin.cork();
    try {
      for (const message of messages as WorkerMessage[]) this.onMessage(message);
    } finally {
      process.nextTick(() => this.child.stdin.uncork());
    }
  }

  private onMessage(message: WorkerMessage): void {
    if (message.type === "hello") {
      this.helloWaiter?.resolve(message);
      this.helloWaiter = null;
      return;
    }
    if (message.type === "released") {
      // Never the request it works on (the first); any of those sent after it.
      const at = this.inFlight.findIndex((r) => r.id === message.id);
      if (at > 0) {
        const [released] = this.inFlight.splice(at, 1);
        this.stalled = true;
        released!.reject(new RequestReleasedError(), false);
        return;
      }
    }
    const pending = this.inFlight[0];
    if (pending && message.type === "split" && message.id === pending.id && Array.isArray(message.tests)) {
      pending.split(message.tests);
      return;
    }
    if (!pending || message.id !== pending.id || message.type === "released" || message.type === "split") {
      // Only the worker writes to this pipe (children never see it), so this is a bug, not an attack.
      this.stderrTail += `\nunexpected message ${JSON.stringify(message).slice(0, 200)}`;
      this.kill();
      return;
    }
    this.inFlight.shift();
    this.stalled = false;
    if (pending.timer) clearTimeout(pending.timer);
    this.startClock();
    if (message.type === "error") pending.reject(new WorkerRequestError(message.message), true);
    else pending.resolve(message);
  }

  kill(): void {
    if (!this.exited) this.child.kill("SIGKILL");
  }

  /** Closes stdin (the worker's signal to exit) and waits; kills it after graceMs. */
  close(graceMs = 5000): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.kill(), graceMs);
      this.whenExited(() => {
        clearTimeout(timer);
        resolve();
      });
      this.child.stdin.end();
    });
  }
}
