import type { Agent, AgentMove, AgentTurnInput, Simulator, SimulatorMove, SimulatorTurnInput } from "../colbench/roles";

/**
 * A side played by a person: the episode waits until a move arrives (from a browser, through the
 * studio's API) and shows whoever listens what the person is being asked to respond to.
 */
class MoveInbox<Input> {
  private pending: {
    input: Input;
    resolve: (text: string) => void;
    reject: (error: Error) => void;
    since: number;
  } | null = null;
  private readonly listeners = new Set<(input: Input) => void>();

  wait(input: Input): Promise<{ text: string; waitMs: number }> {
    if (this.pending) throw new Error("a move is already awaited");
    return new Promise((resolve, reject) => {
      const since = performance.now();
      this.pending = {
        input,
        since,
        resolve: (text) => resolve({ text, waitMs: performance.now() - since }),
        reject,
      };
      for (const listener of this.listeners) listener(input);
    });
  }

  /** What the person is asked to respond to now, if anything. */
  get awaiting(): Input | null {
    return this.pending?.input ?? null;
  }

  submit(text: string): void {
    const pending = this.pending;
    if (!pending) throw new Error("no move is awaited right now");
    this.pending = null;
    pending.resolve(text);
  }

  abandon(reason: string): void {
    const pending = this.pending;
    this.pending = null;
    pending?.reject(new Error(reason));
  }

  onAwait(listener: (input: Input) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export class HumanAgent implements Agent {
  readonly kind = "human";
  readonly inbox = new MoveInbox<AgentTurnInput>();
  constructor(readonly name = "human") {}

  async act(input: AgentTurnInput): Promise<AgentMove> {
    const { text, waitMs } = await this.inbox.wait(input);
    return { text, waitMs };
  }
}

export class HumanSimulator implements Simulator {
  readonly kind = "human";
  readonly inbox = new MoveInbox<SimulatorTurnInput>();
  constructor(readonly name = "human") {}

  async reply(input: SimulatorTurnInput): Promise<SimulatorMove> {
    const { text, waitMs } = await this.inbox.wait(input);
    return { text, waitMs };
  }
}
