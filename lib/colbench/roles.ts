import type { DialogueMessage } from "./protocol";
import type { TestCase } from "./tasks";

// Who plays a side is pluggable: a model server, a person in a browser, or a stored trajectory.
// The two sides see different things, and the types keep it so: the agent never gets hidden parts.

/** What an agent may know of a task. */
export interface PublicTask {
  /** The benchmark's registered name (lib/benchmarks). */
  benchmark: string;
  problemDescription: string;
}

/** What the simulated human knows: everything. */
export interface HiddenTask extends PublicTask {
  groundTruth: string;
  hiddenInformation: string | null;
  testCases: TestCase[] | null;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

export interface AgentTurnInput {
  task: PublicTask;
  /** The dialogue so far, starting with the task's description as the human's first message. */
  dialogue: DialogueMessage[];
  /** 0-based number of this agent turn. */
  turn: number;
  /** Ends the wait for the move (the run stopped, or this process lost the episode's claim). */
  signal?: AbortSignal;
}

export interface AgentMove {
  /** The agent's raw output. */
  text: string;
  /** The prompt exactly as sent, when a model produced the move. */
  prompt?: unknown;
  usage?: Usage;
  logprobs?: Array<{ token: string; logprob: number }>;
  /** Time spent waiting for whoever produced the move. */
  waitMs?: number;
}

export interface SimulatorTurnInput {
  task: HiddenTask;
  dialogue: DialogueMessage[];
  /** Frontend: the screenshot of the agent's latest proposal this turn (null when it gave none). */
  agentRender?: { id: string; png: Buffer } | null;
  /** Frontend: the screenshot of the target page. */
  targetRender?: { id: string; png: Buffer };
  signal?: AbortSignal;
}

export interface SimulatorMove {
  /** The reply before the benchmark's length cut. */
  text: string;
  prompt?: unknown;
  usage?: Usage;
  waitMs?: number;
}

export interface Agent {
  readonly kind: "model" | "human" | "replay";
  readonly name: string;
  act(input: AgentTurnInput): Promise<AgentMove>;
}

export interface Simulator {
  readonly kind: "model" | "human" | "replay";
  readonly name: string;
  reply(input: SimulatorTurnInput): Promise<SimulatorMove>;
}
