import type { PrismaClient } from "../db/generated/client";
import { isHuman, runConfigSchema } from "../runs/config";
import { loadTurns } from "../store/episodes";
import { turnFor, type SeatTurn } from "./views";

interface SeatBase {
  episodeId: number;
  runId: number | null;
  taskId: number;
  benchmark: "backend" | "frontend";
  problemDescription: string;
  status: string;
  reward: number | null;
  turns: SeatTurn[];
  /** Whether a person plays this seat in this episode (else a model server does). */
  personSeat: boolean;
  /** Whether a person plays the other seat. */
  personOpposite: boolean;
}

export type AgentSeatView = SeatBase;

export interface SimulatorSeatView extends SeatBase {
  groundTruth: string;
  testCases: Array<{ name: string; expression: string }> | null;
}

async function load(prisma: PrismaClient, episodeId: number) {
  if (!Number.isSafeInteger(episodeId)) return null;
  return prisma.episode.findUnique({
    where: { id: episodeId },
    select: {
      id: true,
      runId: true,
      taskId: true,
      status: true,
      reward: true,
      run: { select: { config: true } },
      // Only what every seat may see; the simulator's view adds the hidden fields below.
      task: { select: { benchmark: true, problemDescription: true } },
    },
  });
}

function seats(config: unknown): { agent: boolean; simulator: boolean } {
  const parsed = runConfigSchema.safeParse(config);
  return parsed.success ? { agent: isHuman(parsed.data.agent), simulator: isHuman(parsed.data.simulator) } : { agent: false, simulator: false };
}

type Loaded = NonNullable<Awaited<ReturnType<typeof load>>>;

function viewOf(episode: Loaded, seat: "agent" | "simulator", turns: SeatTurn[]): SeatBase {
  const human = seats(episode.run?.config);
  return {
    episodeId: episode.id,
    runId: episode.runId,
    taskId: episode.taskId,
    benchmark: episode.task.benchmark,
    problemDescription: episode.task.problemDescription,
    status: episode.status,
    reward: episode.reward,
    turns,
    personSeat: seat === "agent" ? human.agent : human.simulator,
    personOpposite: seat === "agent" ? human.simulator : human.agent,
  };
}

/** The agent seat's view: the task's description and the dialogue, nothing hidden. */
export async function agentSeatView(prisma: PrismaClient, episodeId: number): Promise<AgentSeatView | null> {
  const episode = await load(prisma, episodeId);
  if (!episode) return null;
  return viewOf(episode, "agent", (await loadTurns(prisma, episode.id)).map((t) => turnFor("agent", t)));
}

/** The collaborator's (simulated human's) view: the dialogue and the hidden information. */
export async function simulatorSeatView(prisma: PrismaClient, episodeId: number): Promise<SimulatorSeatView | null> {
  const episode = await load(prisma, episodeId);
  if (!episode) return null;
  const hidden = await prisma.task.findUniqueOrThrow({ where: { id: episode.taskId }, select: { groundTruth: true, testCases: true } });
  return {
    ...viewOf(episode, "simulator", (await loadTurns(prisma, episode.id)).map((t) => turnFor("simulator", t))),
    groundTruth: hidden.groundTruth,
    testCases: (hidden.testCases as SimulatorSeatView["testCases"]) ?? null,
  };
}
