import { isPerson, isTab } from "../colbench/run-config";
import { runConfigSchema } from "../benchmarks/run-config";
import { MESSAGE_CHAR_LIMIT } from "../colbench/protocol";
import { benchmarkOf, type Benchmark } from "../benchmarks";
import { scoredByOf } from "../benchmarks/reward-sentence";
import type { Store } from "../store";
import type { SeatEpisode } from "../store/play";
import { turnFor, type SeatTurn } from "./seat-turns";

interface SeatBase {
  episodeId: number;
  runId: number | null;
  taskId: number;
  benchmark: Benchmark;
  problemDescription: string;
  status: string;
  reward: number | null;
  turns: SeatTurn[];
  /** Whether a person plays this seat in this episode (else a model server, or a model in the collaborator's tab, does). */
  personSeat: boolean;
  /** Whether a person plays the other seat. */
  personOpposite: boolean;
  /** The longest move this seat may send (characters). */
  messageChars: number;
  /** What made the reward, when the benchmark names it (a similarity's embedder). */
  scoredBy: string | null;
}

export interface AgentSeatView extends SeatBase {
  /** What the editor starts with: the task's stated signature, or an empty page. */
  starter: string;
}

export interface SimulatorSeatView extends SeatBase {
  groundTruth: string;
  /** What the simulator holds beside the reference (a backend task's notes; math-hard's problem). */
  hiddenInformation: string | null;
  testCases: Array<{ name: string; expression: string }> | null;
  /** The agent as a model this seat's tab generates with (the served policy), or null. */
  tabAgent: TabAgentView | null;
}

export interface TabAgentView {
  model: string;
  template: string;
  temperature: number;
  topP: number;
  seed: number;
  maxTokens: number;
}

/** The in-tab agent of a run, as the collaborator's page shows and runs it. */
export function tabAgentOf(config: unknown): TabAgentView | null {
  const parsed = runConfigSchema.safeParse(config);
  if (!parsed.success || !isTab(parsed.data.agent)) return null;
  const { tab } = parsed.data.agent;
  const { temperature, maxTokens } = parsed.data.sampling;
  return { model: tab.model, template: tab.template, temperature, topP: tab.topP, seed: tab.seed, maxTokens };
}

/** Which seats of a run people play (a person's seat may be handed out by link), and their move limit. */
export function personSeats(config: unknown): { agent: boolean; simulator: boolean; messageChars: number } {
  const parsed = runConfigSchema.safeParse(config);
  return parsed.success
    ? {
        agent: isPerson(parsed.data.agent),
        simulator: isPerson(parsed.data.simulator),
        messageChars: parsed.data.messageChars,
      }
    : { agent: false, simulator: false, messageChars: MESSAGE_CHAR_LIMIT };
}

/** The longest move a seat of this run may send. */
export function messageLimit(config: unknown): number {
  return personSeats(config).messageChars;
}

function viewOf(episode: SeatEpisode, seat: "agent" | "simulator", turns: SeatTurn[]): SeatBase {
  const human = personSeats(episode.runConfig);
  return {
    episodeId: episode.id,
    runId: episode.runId,
    taskId: episode.taskId,
    benchmark: episode.benchmark,
    problemDescription: episode.problemDescription,
    status: episode.status,
    reward: episode.reward,
    turns,
    personSeat: seat === "agent" ? human.agent : human.simulator,
    personOpposite: seat === "agent" ? human.simulator : human.agent,
    messageChars: human.messageChars,
    scoredBy: scoredByOf(episode.benchmark, episode.runConfig),
  };
}

/** The agent seat's view: the task's description and the dialogue, nothing hidden. */
export async function agentSeatView(store: Store, episodeId: number): Promise<AgentSeatView | null> {
  const episode = await store.episodes.forSeat(episodeId);
  if (!episode) return null;
  return {
    ...viewOf(
      episode,
      "agent",
      (await store.episodes.turns(episode.id)).map((t) => turnFor("agent", t)),
    ),
    starter: benchmarkOf(episode.benchmark).starter(episode.problemDescription),
  };
}

/** The collaborator's (simulated human's) view: the dialogue and the hidden information. */
export async function simulatorSeatView(store: Store, episodeId: number): Promise<SimulatorSeatView | null> {
  const episode = await store.episodes.forSeat(episodeId);
  if (!episode) return null;
  const hidden = await store.tasks.hidden(episode.taskId);
  return {
    ...viewOf(
      episode,
      "simulator",
      (await store.episodes.turns(episode.id)).map((t) => turnFor("simulator", t)),
    ),
    groundTruth: hidden.groundTruth,
    hiddenInformation: hidden.hiddenInformation,
    testCases: hidden.testCases,
    tabAgent: tabAgentOf(episode.runConfig),
  };
}
