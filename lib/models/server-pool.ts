// Replicas of one model (several vLLM servers): each request goes to the least loaded server that
// is up and below its own limit; a server that fails (no connection, a timeout, HTTP 5xx) is taken
// out for a while and tried again after. Several clients in one process share a pool.

export interface PoolOptions {
  /** Requests in flight to each server at once. */
  perServer: number;
  /** How long a server that failed stays out. */
  downMs?: number;
}

interface Member {
  url: string;
  inFlight: number;
  downUntil: number;
  /** Requests sent to it (for tests and the doctor). */
  sent: number;
}

/** A failure the pool should take a server out for (the caller's error says which). */
export type FailureTest = (error: unknown) => boolean;

export class ServerPool {
  private readonly members: Member[];
  private readonly waiting: Array<() => void> = [];
  readonly downMs: number;

  constructor(
    urls: string[],
    readonly options: PoolOptions,
  ) {
    if (!urls.length) throw new Error("a server pool needs at least one server");
    if (!(options.perServer >= 1))
      throw new Error(`per-server concurrency must be at least 1 (got ${options.perServer})`);
    this.members = urls.map((url) => ({ url, inFlight: 0, downUntil: 0, sent: 0 }));
    this.downMs = options.downMs ?? 30_000;
  }

  /**
   * Runs `request` against one server. When every server is out, the one back soonest is used
   * anyway: a pool never refuses outright, the caller's retries decide when to give up.
   */
  async run<T>(request: (url: string) => Promise<T>, failed: FailureTest = () => true): Promise<T> {
    let member = this.pick();
    while (!member) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      member = this.pick();
    }
    member.inFlight++;
    member.sent++;
    try {
      const result = await request(member.url);
      member.downUntil = 0;
      return result;
    } catch (error) {
      if (failed(error)) member.downUntil = Date.now() + this.downMs;
      throw error;
    } finally {
      member.inFlight--;
      this.waiting.shift()?.();
    }
  }

  private pick(): Member | null {
    const now = Date.now();
    const isFree = (m: Member) => m.inFlight < this.options.perServer;
    const up = this.members.filter((m) => m.downUntil <= now);
    // A healthy server that is busy is waited for rather than sending to one that is out.
    if (up.length)
      return up
        .filter(isFree)
        .reduce<Member | null>((best, m) => (!best || m.inFlight < best.inFlight ? m : best), null);
    // All out: none is healthy to prefer, so the one whose time out ends first.
    return this.members
      .filter(isFree)
      .reduce<Member | null>((best, m) => (!best || m.downUntil < best.downUntil ? m : best), null);
  }

  /** Each server's state now. */
  status(): Array<{ url: string; inFlight: number; up: boolean; sent: number }> {
    const now = Date.now();
    return this.members.map((m) => ({ url: m.url, inFlight: m.inFlight, up: m.downUntil <= now, sent: m.sent }));
  }
}

const pools = new Map<string, ServerPool>();

/** The process's pool for a set of replicas (one per set of URLs and limit). */
export function serverPool(urls: string[], perServer: number): ServerPool {
  const key = `${[...urls].sort().join(" ")}|${perServer}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new ServerPool(urls, { perServer, downMs: Number(process.env.COLBENCH_SERVER_DOWN_MS) || undefined });
    pools.set(key, pool);
  }
  return pool;
}
