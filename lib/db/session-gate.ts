/**
 * PGlite is one PostgreSQL session. Everything that uses it — the owner's own queries and every
 * socket client, all in the database's thread — takes turns through this gate: a query or a whole transaction at a time, so no
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
