import type { AgentTurnInput, SimulatorTurnInput } from "../colbench/roles";
import { isHuman } from "../colbench/run-config";
import type { RunConfig } from "../benchmarks/run-config";
import type { EventBus } from "../events";
import { HumanAgent, HumanSimulator } from "../models/human";
import type { SeatPlayers } from "../runs/play-run";
import { MoveRefused } from "./move-refused";
import { processSlot } from "../process-slot";

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
    if (isHuman(config.agent)) {
      seats.agent = new HumanAgent();
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
   * A person's move for the side they play. Refused unless that side is awaited in that episode now,
   * so a stale browser tab or a double click cannot slip a move into the wrong turn.
   */
  submitMove(runId: number, episodeId: number, role: SeatRole, text: string): void {
    const seats = this.runs.get(runId);
    const seat = role === "agent" ? seats?.agent : seats?.simulator;
    if (!seats || !seat)
      throw new MoveRefused(`the ${role} of this run is not played by a person, or the run is not playing`);
    if (seats.episodeId !== episodeId) throw new MoveRefused(`episode ${episodeId} is not the one playing now`);
    if (!seat.inbox.awaiting) throw new MoveRefused(`it is not the ${role}'s move`);
    seat.inbox.submit(text);
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
