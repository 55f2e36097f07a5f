import type { AgentTurnInput, SimulatorTurnInput } from "../colbench/roles";
import { isHuman, isTab, playerName } from "../colbench/run-config";
import type { RunConfig } from "../benchmarks/run-config";
import type { EventBus } from "../events";
import { HumanAgent, HumanSimulator, type MoveExtra } from "../models/human";
import type { SeatPlayers } from "../runs/play-run";
import { MoveRefused } from "./move-refused";
import { processSlot } from "../process-slot";
import { TabAgent, tabTurnRequest, type TabTurnRequest } from "./tab-agent";

export type SeatRole = "agent" | "simulator";

/** A move a person is asked for: which side, in which episode, and what that side is shown. */
export type AwaitedMove =
  | { runId: number; episodeId: number; role: "agent"; input: AgentTurnInput }
  | { runId: number; episodeId: number; role: "simulator"; input: SimulatorTurnInput };

interface RunSeats {
  agent?: HumanAgent;
  simulator?: HumanSimulator;
  /** The episode playing now (a run with people in it plays one at a time). */
  episodeId: number | null;
  /** An agent played by a model in a browser tab: the run's config and the tab that holds the seat now. */
  tab?: { config: RunConfig; holder: string | null };
}

/**
 * The seats people play in runs of this process: moves arrive from browsers (POST .../move) and are
 * handed to the waiting episode; whenever a move is awaited the bus says so, and the live views of
 * this process ask here what that seat is shown.
 */
export class Seats {
  private readonly runs = new Map<number, RunSeats>();

  constructor(private readonly bus: EventBus) {}

  /** For playRun: the people's sides of a run, or null when model servers play both. */
  readonly take = (runId: number, config: RunConfig): SeatPlayers | null => {
    if (!isHuman(config.agent) && !isHuman(config.simulator)) return null;
    const seats: RunSeats = { episodeId: null };
    const announce = (role: SeatRole) => () => {
      if (seats.episodeId !== null) this.bus.publish({ type: "awaiting", runId, episodeId: seats.episodeId, role });
    };
    if (isTab(config.agent)) {
      seats.agent = new TabAgent(config, playerName(config.agent));
      seats.tab = { config, holder: null };
      seats.agent.inbox.onAwait(announce("agent"));
    } else if (isHuman(config.agent)) {
      // Its turns carry the prompt a model here would have been sent, for live advantages and SWEET-RL's steps.
      seats.agent = new HumanAgent("human", config.prompts.agent);
      seats.agent.inbox.onAwait(announce("agent"));
    }
    if (isHuman(config.simulator)) {
      seats.simulator = new HumanSimulator();
      seats.simulator.inbox.onAwait(announce("simulator"));
    }
    this.runs.set(runId, seats);
    return {
      agent: seats.agent,
      simulator: seats.simulator,
      episodeStarted: (episodeId) => (seats.episodeId = episodeId),
      abandon: (reason) => {
        seats.agent?.inbox.abandon(reason);
        seats.simulator?.inbox.abandon(reason);
      },
      release: () => {
        if (this.runs.get(runId) === seats) this.runs.delete(runId);
      },
    };
  };

  /** The move a person is asked for in this run now, if it plays in this process. */
  awaiting(runId: number): AwaitedMove | null {
    const seats = this.runs.get(runId);
    if (!seats || seats.episodeId === null) return null;
    const agentInput = seats.agent?.inbox.awaiting;
    if (agentInput) return { runId, episodeId: seats.episodeId, role: "agent", input: agentInput };
    const simulatorInput = seats.simulator?.inbox.awaiting;
    if (simulatorInput) return { runId, episodeId: seats.episodeId, role: "simulator", input: simulatorInput };
    return null;
  }

  /**
   * The agent's turn for the tab that generates it, which then holds the agent's seat: the last tab
   * to ask is the one whose move is taken (a reloaded page takes over; a stale one is refused). Only
   * the prompt a model agent is sent, never the hidden side of the task.
   */
  tabTurn(runId: number, episodeId: number, tab: string): TabTurnRequest {
    const seats = this.runs.get(runId);
    if (!seats?.tab) throw new MoveRefused("the agent of this run is not a model in a tab, or the run is not playing");
    if (seats.episodeId !== episodeId) throw new MoveRefused(`episode ${episodeId} is not the one playing now`);
    const input = seats.agent?.inbox.awaiting;
    if (!input) throw new MoveRefused("it is not the agent's move");
    seats.tab.holder = tab;
    return tabTurnRequest(seats.tab.config, episodeId, input);
  }

  /**
   * A person's move for the side they play. Refused unless that side is awaited in that episode now,
   * so a stale browser tab or a double click cannot slip a move into the wrong turn.
   */
  submitMove(
    runId: number,
    episodeId: number,
    role: SeatRole,
    text: string,
    from: { tab?: string } & MoveExtra = {},
  ): void {
    const seats = this.runs.get(runId);
    const seat = role === "agent" ? seats?.agent : seats?.simulator;
    if (!seats || !seat)
      throw new MoveRefused(`the ${role} of this run is not played by a person, or the run is not playing`);
    if (seats.episodeId !== episodeId) throw new MoveRefused(`episode ${episodeId} is not the one playing now`);
    if (!seat.inbox.awaiting) throw new MoveRefused(`it is not the ${role}'s move`);
    // A tab's agent: only the tab that asked for this turn last moves for it; nobody types it.
    if (role === "agent" && seats.tab) {
      if (!from.tab) throw new MoveRefused("the agent of this run is a model in the collaborator's tab, not a person");
      if (from.tab !== seats.tab.holder)
        throw new MoveRefused("another tab holds the agent's seat now (the last one to ask for the turn)");
    }
    seat.inbox.submit(text, role === "agent" && seats.tab ? { usage: from.usage } : {});
  }
}

// One per process, beside the run manager: `colbench serve` makes it, route code finds it here.
const slot = processSlot<Seats>("colbench.seats");

export function setSeats(seats: Seats): void {
  slot.set(seats);
}

export function getSeats(): Seats {
  return slot.need("no seats in this process: start the studio with `npx colbench serve`");
}
