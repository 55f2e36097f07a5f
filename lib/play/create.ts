import type { Benchmark } from "../benchmarks";
import { parseServerSpec } from "../colbench/server-spec";
import { isPerson, type Player } from "../colbench/run-config";
import type { RunManager } from "../runs/manager";
import type { Store } from "../store";
import { issueSeatLink, seatPath, type IssuedSeatLink } from "../access/seat-links";
import { tabAgentPlayer } from "./tab-player";

/** An agent generated in the collaborator's tab: the run's sampling and the generator's. */
export interface TabAgentSpec {
  temperature: number;
  topP: number;
  seed: number;
  maxTokens: number;
}

/** Who a person plays, and who plays the other side. */
export interface NewPlay {
  benchmark: Benchmark;
  /** A task id; a random task of the benchmark when absent. */
  taskId?: number;
  /** "simulator" is the collaborator's seat; "both" means two people, one per seat. */
  seat: "agent" | "simulator" | "both";
  /**
   * The other side's model server as URL#MODEL, "human" for a second person, or "tab" for an agent
   * generated in the collaborator's browser tab from the served policy weights (`tab` its sampling).
   */
  opponent?: string;
  tab?: TabAgentSpec;
  /** The benchmark's own run options, as asked (its module checks them). */
  options?: Record<string, unknown>;
}

export interface PlaySession {
  runId: number;
  episodeId: number;
  taskId: number;
  /** The seat the person who started it takes: opened as themselves, with no key. */
  ownUrl: string;
  /**
   * The seats handed to someone else (the other person's, when two play), each with its one key:
   * shown to whoever started the episode, once; the studio keeps only the keys' hashes.
   */
  links: IssuedSeatLink[];
  /** Each seat's address; a handed-out seat's carries its key (the one in `links`). */
  agentUrl: string;
  simulatorUrl: string;
}

/** Makes a one-episode run with a person on one side (or both) and starts it in the studio. */
export async function createPlay(store: Store, manager: RunManager, spec: NewPlay): Promise<PlaySession> {
  const human: Player = { human: true };
  const opponent = (side: string): Player => {
    if (spec.seat === "both" || !spec.opponent || spec.opponent.trim() === "human") return human;
    return parseServerSpec(spec.opponent.trim(), side);
  };
  const inTab = spec.opponent?.trim() === "tab";
  if (inTab && spec.seat !== "simulator")
    throw new Error("opponent \"tab\" is the agent generated in the collaborator's tab: take the collaborator's seat");
  const tab = inTab ? { temperature: 0, topP: 1, seed: 0, maxTokens: 256, ...spec.tab } : null;
  const agent = tab ? await tabAgentPlayer(tab) : spec.seat === "simulator" ? opponent("opponent (agent)") : human;
  const simulator = spec.seat === "agent" ? opponent("opponent (simulator)") : human;
  const taskId = await store.tasks.pick(spec.benchmark, spec.taskId);
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "");
  const runId = await manager.create(
    {
      benchmark: spec.benchmark,
      selector: `ids=${taskId}`,
      agent,
      simulator,
      temperature: tab?.temperature ?? 0,
      ...(tab ? { maxTokens: tab.maxTokens } : {}),
      name: `play-${spec.benchmark}-${taskId}-${stamp}-${Math.random().toString(36).slice(2, 6)}`,
      options: spec.options,
    },
    { start: false },
  );
  // Made here (the runner would make it too) so the seats' links exist before the first move.
  await store.episodes.ensure(runId, [taskId], 1, simulator === human);
  const episodeId = (await store.episodes.first(runId))!;
  // Keys only for the seats someone else takes, made here once: the one who starts the episode
  // hands them out. Their own seat needs none (their session opens it), and no seat's page makes one.
  const own = spec.seat === "agent" ? "agent" : "simulator";
  const other = own === "agent" ? "simulator" : "agent";
  // A tab's agent is no person's seat: nobody is handed it.
  const links = isPerson(other === "agent" ? agent : simulator) ? [await issueSeatLink(store, episodeId, other)] : [];
  const url = (seat: "agent" | "simulator") => links.find((l) => l.seat === seat)?.url ?? seatPath(episodeId, seat);
  manager.start(runId);
  return {
    runId,
    episodeId,
    taskId,
    ownUrl: seatPath(episodeId, own),
    links,
    agentUrl: url("agent"),
    simulatorUrl: url("simulator"),
  };
}
