import type { PGlite } from "@electric-sql/pglite";

/**
 * PGlite is one PostgreSQL session. Everything that uses it — the owner's own queries and every
 * socket client — takes turns through this gate: a query or a whole transaction at a time, so no
 * one's statements ever land inside another's transaction or between another's Parse and Sync.
 */
export class SessionGate {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;

  /** Waits for the session; call the returned function to hand it on. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => mine);
    this.waiting++;
    return previous.then(() => {
      this.waiting--;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    });
  }

  async run<T>(use: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await use();
    } finally {
      release();
    }
  }

  /** How many are queued for the session now. */
  get queued(): number {
    return this.waiting;
  }
}

/**
 * The owner's PGlite as its Prisma adapter sees it: `query`, `exec` and `transaction` wait for
 * the gate (a transaction holds it from BEGIN to COMMIT); everything else is PGlite's own.
 */
export function gatedPglite(db: PGlite, gate: SessionGate): PGlite {
  return new Proxy(db, {
    get(target, property) {
      if (property === "query" || property === "exec" || property === "transaction" || property === "sql") {
        const method = Reflect.get(target, property, target) as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => gate.run(() => method.apply(target, args));
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
