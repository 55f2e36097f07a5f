import { EventEmitter } from "node:events";
import type { PrismaClient } from "../db/generated/client";
import type { TurnRecord } from "../colbench/episode";
import type { AgentTurnInput, SimulatorTurnInput } from "../colbench/roles";
import { HumanAgent, HumanSimulator } from "../models/human";
import { isHuman } from "./config";
import { createRun, type NewRun } from "./create";
import { executeRun, loadRunConfig, type RunEvents } from "./runner";
import { MoveRefused } from "./move-refused";
import { modelServices } from "./services";
import { openScorer } from "./scorers";

export interface RunProgress {
  runId: number;
  state: "running" | "stopping" | "finished" | "stopped" | "crashed";
  done: number;
  failed: number;
  running: number;
  total: number;
  turns: number;
  tokens: number;
  error?: string;
}

export type SeatRole = "agent" | "simulator";

/** A move a person is asked for: which side, in which episode, and what that side is shown. */
export type AwaitedMove =
  | { runId: number; episodeId: number; role: "agent"; input: AgentTurnInput }
  | { runId: number; episodeId: number; role: "simulator"; input: SimulatorTurnInput };

export interface ManagerEvents {
  progress: [RunProgress];
  episode: [RunEvents["episode"][0] & { runId: number }];
  turn: [{ runId: number; episodeId: number; turn: TurnRecord }];
  awaiting: [AwaitedMove];
}

/** The human sides of a run that people play from the studio. */
interface Seats {
  agent?: HumanAgent;
  simulator?: HumanSimulator;
  /** The episode playing now (human runs play one at a time). */
  episodeId: number | null;
}

interface Active {
  controller: AbortController;
  progress: RunProgress;
  finished: Promise<void>;
}

/**
 * Runs started from the studio, played inside the server process (which owns the database) with
 * their answers scored in the sandbox and render workers. Live viewers subscribe to events here,
 * so watching a run never polls the database.
 */
export class RunManager {
  readonly events = new EventEmitter<ManagerEvents>();
  private readonly active = new Map<number, Active>();
  private readonly last = new Map<number, RunProgress>();
  private readonly seats = new Map<number, Seats>();

  constructor(private readonly prisma: PrismaClient) {
    this.events.setMaxListeners(0);
  }

  async create(spec: NewRun, options: { start?: boolean } = {}): Promise<number> {
    const run = await createRun(this.prisma, spec);
    if (options.start !== false) this.start(run.id);
    return run.id;
  }

  /** Starts (or resumes) a run; a run already playing is left alone. */
  start(runId: number): void {
    if (this.active.has(runId)) return;
    const controller = new AbortController();
    const progress: RunProgress = { runId, state: "running", done: 0, failed: 0, running: 0, total: 0, turns: 0, tokens: 0 };
    const emit = () => {
      this.last.set(runId, { ...progress });
      this.events.emit("progress", { ...progress });
    };
    const events = new EventEmitter<RunEvents>();
    const seats: Seats = { episodeId: null };
    events.on("episode", (e) => {
      if (e.status === "running") seats.episodeId = e.episodeId;
      this.events.emit("episode", { ...e, runId });
    });
    events.on("turn", (e) => this.events.emit("turn", { ...e, runId }));
    const finished = (async () => {
      const config = await loadRunConfig(this.prisma, runId);
      if (isHuman(config.agent)) {
        seats.agent = new HumanAgent();
        seats.agent.inbox.onAwait((input) => this.events.emit("awaiting", { runId, episodeId: seats.episodeId ?? -1, role: "agent", input }));
      }
      if (isHuman(config.simulator)) {
        seats.simulator = new HumanSimulator();
        seats.simulator.inbox.onAwait((input) => this.events.emit("awaiting", { runId, episodeId: seats.episodeId ?? -1, role: "simulator", input }));
      }
      this.seats.set(runId, seats);
      const scorer = await openScorer(config);
      const services = { ...scorer.services, ...modelServices(scorer) };
      if (seats.agent) services.makeAgent = () => seats.agent!;
      if (seats.simulator) services.makeSimulator = () => seats.simulator!;
      try {
        await executeRun(this.prisma, runId, services, {
          events,
          signal: controller.signal,
          onProgress: (p) => {
            Object.assign(progress, p);
            emit();
          },
        });
        progress.state = "finished";
      } finally {
        await scorer.close();
      }
    })()
      .catch(async (error: Error) => {
        if (controller.signal.aborted) {
          progress.state = "stopped";
          await this.prisma.run.update({ where: { id: runId }, data: { status: "paused" } });
        } else {
          progress.state = "crashed";
          progress.error = error.message;
          await this.prisma.run.update({ where: { id: runId }, data: { status: "failed" } }).catch(() => {});
        }
      })
      .finally(() => {
        this.active.delete(runId);
        this.seats.delete(runId);
        emit();
      });
    this.active.set(runId, { controller, progress, finished });
    emit();
  }

  /** Stops a run between turns; interrupted episodes continue from their last turn on resume. */
  async stop(runId: number): Promise<void> {
    const run = this.active.get(runId);
    if (!run) return;
    run.progress.state = "stopping";
    this.events.emit("progress", { ...run.progress });
    run.controller.abort();
    // A person's move may never come: stop waiting for it.
    const seats = this.seats.get(runId);
    seats?.agent?.inbox.abandon("the run was stopped");
    seats?.simulator?.inbox.abandon("the run was stopped");
    await run.finished;
  }

  /** The move a person is asked for in this run now, if any. */
  awaiting(runId: number): AwaitedMove | null {
    const seats = this.seats.get(runId);
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
    const seats = this.seats.get(runId);
    const seat = role === "agent" ? seats?.agent : seats?.simulator;
    if (!seats || !seat) throw new MoveRefused(`the ${role} of this run is not played by a person, or the run is not playing`);
    if (seats.episodeId !== episodeId) throw new MoveRefused(`episode ${episodeId} is not the one playing now`);
    if (!seat.inbox.awaiting) throw new MoveRefused(`it is not the ${role}'s move`);
    seat.inbox.submit(text);
  }

  progress(runId: number): RunProgress | null {
    return this.active.get(runId)?.progress ?? this.last.get(runId) ?? null;
  }

  isActive(runId: number): boolean {
    return this.active.has(runId);
  }

  async close(): Promise<void> {
    await Promise.all([...this.active.keys()].map((id) => this.stop(id)));
  }
}
