// Messages and framing between BackendScorer and the Python sandbox worker
// (workers/python/protocol.py): a 4-byte big-endian length, then that many bytes of UTF-8 JSON.

export const MAX_FRAME = 64 * 1024 * 1024;

export interface SandboxIsolationReport {
  network: string;
  filesystem: string;
  masked: string[];
  pid: string;
  user: string;
  cgroup: string;
  warnings: string[];
}

export interface HelloMessage {
  type: "hello";
  pid: number;
  /** The worker's zygote: the one process that forks sandbox children (workers/python/zygote.py). */
  zygote?: number;
  /** How the zygote forks children (it is a fresh interpreter; see workers/python/zygote.py). */
  zygote_fork?: string;
  /** The one core the worker keeps to (its zygote and children too), or null when not pinned. */
  cpu?: number | null;
  python: string;
  executable?: string;
  isolation: SandboxIsolationReport;
  limits: Record<string, number>;
  preloaded: Record<string, string>;
  /** Modules the zygote may import ahead, once requests keep naming one (workers/python/README.md). */
  preload_on_demand?: string[];
  /** Whether requests reuse.py allows run in a resident child. */
  reuse?: boolean;
}

export interface ScoreRequest {
  id: number;
  type: "score";
  ground_truth: string;
  answer: string;
  tests: [string, string][];
  /**
   * What the worker may do once this request's child runs long (workers/python/worker.py, Door):
   * hand back the requests queued behind it ("release"), and also leave the tests the child has not
   * reached to another worker ("split"). Absent: neither (a lane of one worker gains nothing).
   */
  stall?: "release" | "split";
  /** Set on the tests a split left: the same answer again, not one more to count (scoring._Demand). */
  part?: boolean;
}

export interface WorkerTestResult {
  passed: boolean;
  reason: string;
  expected?: string;
  actual?: string;
  /** A failing test's exception message, and what the answer printed during it (made in the sandboxed child). */
  message?: string;
  output?: string;
}

export interface ScoreReply {
  id: number;
  type: "result";
  reward: number;
  tests: WorkerTestResult[];
  output: string;
  children: number;
}

export interface ErrorReply {
  id: number | null;
  type: "error";
  message: string;
}

/** A request the worker hands back unstarted: it waited behind a slow child (workers/python/worker.py, Door). */
export interface ReleasedReply {
  id: number;
  type: "released";
}

/**
 * Sent before the result of a slow request: these of its tests (indices into its list) were left
 * for another worker to run; the result carries the reason "given away" in their place
 * (workers/python/scoring.py), which the pool replaces with the other worker's results.
 */
export interface SplitMessage {
  id: number;
  type: "split";
  tests: number[];
}

export type WorkerMessage = HelloMessage | ScoreReply | ErrorReply | ReleasedReply | SplitMessage;

export function encodeFrame(message: unknown): Buffer {
  const text = JSON.stringify(message);
  const length = Buffer.byteLength(text, "utf8");
  if (length > MAX_FRAME) throw new Error(`message of ${length} bytes exceeds the ${MAX_FRAME}-byte frame limit`);
  // One buffer for the length and the body: the pool encodes a frame per answer.
  const frame = Buffer.allocUnsafe(4 + length);
  frame.writeUInt32BE(length, 0);
  frame.write(text, 4, "utf8");
  return frame;
}

/** Reassembles frames from stream chunks, which split and merge frames arbitrarily. */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private size = 0;

  push(chunk: Buffer): unknown[] {
    this.chunks.push(chunk);
    this.size += chunk.length;
    const out: unknown[] = [];
    let data = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    let at = 0;
    while (data.length - at >= 4) {
      const length = data.readUInt32BE(at);
      if (length > MAX_FRAME) throw new Error(`frame of ${length} bytes exceeds the ${MAX_FRAME}-byte limit`);
      if (data.length - at - 4 < length) break;
      out.push(JSON.parse(data.toString("utf8", at + 4, at + 4 + length)));
      at += 4 + length;
    }
    data = data.subarray(at);
    this.chunks = data.length ? [data] : [];
    this.size = data.length;
    return out;
  }
}
