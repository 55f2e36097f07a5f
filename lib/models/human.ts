import type { Agent, AgentMove, AgentTurnInput, Simulator, SimulatorMove, SimulatorTurnInput } from "../colbench/roles";

/**
 * A side played by a person: the episode waits until a move arrives (from a browser, through the
 * studio's API) and shows whoever listens what the person is being asked to respond to.
 */
/** What a tab that generated a move says of it beside the text (absent for a person's move). */
export interface MoveExtra {
  usage?: { promptTokens: number; completionTokens: number };
}

class MoveInbox<Input> {
  private pending: {
    input: Input;
    resolve: (text: string, extra: MoveExtra) => void;
    reject: (error: Error) => void;
    since: number;
  } | null = null;
  private readonly listeners = new Set<(input: Input) => void>();

  wait(input: Input): Promise<{ text: string; waitMs: number; extra: MoveExtra }> {
    if (this.pending) throw new Error("a move is already awaited");
    return new Promise((resolve, reject) => {
      const since = performance.now();
      this.pending = {
        input,
        since,
        resolve: (text, extra) => resolve({ text, waitMs: performance.now() - since, extra }),
        reject,
      };
      for (const listener of this.listeners) listener(input);
    });
  }

  /** What the person is asked to respond to now, if anything. */
  get awaiting(): Input | null {
    return this.pending?.input ?? null;
  }

  submit(text: string, extra: MoveExtra = {}): void {
    const pending = this.pending;
    if (!pending) throw new Error("no move is awaited right now");
    this.pending = null;
    pending.resolve(text, extra);
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
  /**
   * `systemPrompt`: the run's agent prompt. Given, a person's turn is stored with the prompt a model in
   * this seat would have been sent (ModelAgent's: that prompt, then the dialogue): the state SWEET-RL's
   * critic and policy score, live and in `rank`.
   */
  constructor(
    readonly name = "human",
    private readonly systemPrompt?: string,
  ) {}

  async act(input: AgentTurnInput): Promise<AgentMove> {
    const { text, waitMs } = await this.inbox.wait(input);
    if (this.systemPrompt === undefined) return { text, waitMs };
    return { text, waitMs, prompt: [{ role: "system", content: this.systemPrompt }, ...input.dialogue] };
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
