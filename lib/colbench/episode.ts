import { EventEmitter } from "node:events";
import {
  MAX_AGENT_TURNS,
  cutReply,
  extractAnswer,
  splitAgentOutput,
  wantsToAnswer,
  type DialogueMessage,
} from "./protocol";
import type { Agent, HiddenTask, Simulator, Usage } from "./roles";

// One ColBench episode as a small state machine. Its state is nothing but the list of turns, so
// an episode interrupted at any point continues from whatever turns were stored.

export type TurnRole = "agent" | "simulator";

export interface TurnRecord {
  index: number;
  role: TurnRole;
  /** What counts as the message (after OUTPUT: for agents; after the length cut for simulators). */
  content: string;
  rawOutput?: string | null;
  prompt?: unknown;
  html?: string | null;
  renderId?: string | null;
  tokenLogprobs?: Array<{ token: string; logprob: number }> | null;
  usage?: Usage | null;
  waitMs?: number;
  /** Filled in later by a critic (SWEET-RL): this turn's advantage. */
  advantage?: number | null;
}

export interface Render {
  id: string;
  png: Buffer;
}

export interface PageRenderer {
  render(html: string): Promise<Render>;
}

export interface EpisodeEvents {
  turn: [TurnRecord];
  done: [EpisodeOutcome];
}

export interface EpisodeOutcome {
  turns: TurnRecord[];
  /** Backend: the final code; frontend: the last proposed HTML (null when the agent never made one). */
  answer: string | null;
  answerRenderId: string | null;
  agentTurns: number;
  /** Time spent waiting for the agent and the simulator. */
  waitMs: number;
}

/** What differs between benchmarks in the dialogue itself; each benchmark's module gives its own. */
export interface EpisodeRules {
  /** The simulated human's reply is cut to this many characters. */
  replyLimit: number;
  /**
   * Benchmarks whose answers are pages: the page an agent's message proposes (null when none). Its
   * presence means the episode renders: the target (the task's ground truth) and every proposal.
   */
  pageOf?: (content: string) => string | null;
  /** The episode's answer from its turns, as the benchmark takes it. */
  finalAnswer(turns: readonly TurnRecord[]): { answer: string | null; answerRenderId: string | null };
  /** Benchmarks where the simulated human opens (from what it holds) instead of the task's description. */
  simulatorOpens?: boolean;
  /** Whether an agent's message ends the episode with an answer (absent: ColBench's answer marker). */
  agentEnds?: (content: string) => boolean;
  /** Benchmarks whose simulated human may end the dialogue: whether this (cut) reply does. */
  simulatorEnds?: (content: string) => boolean;
  /** Agent turns an episode allows unless a run sets its own (ColBench: 10). */
  maxAgentTurns?: number;
}

export interface EpisodeOptions {
  task: HiddenTask;
  rules: EpisodeRules;
  agent: Agent;
  simulator: Simulator;
  /** Stores a turn; called before the episode goes on, so a crash loses at most the turn in flight. */
  persist: (turn: TurnRecord) => Promise<void>;
  /** Turns stored by an earlier, interrupted attempt. */
  resumeFrom?: TurnRecord[];
  /** Page benchmarks only: renders proposals and the target. */
  renderer?: PageRenderer;
  events?: EventEmitter<EpisodeEvents>;
  maxAgentTurns?: number;
  signal?: AbortSignal;
}

function dialogueOf(turns: readonly TurnRecord[]): DialogueMessage[] {
  return turns.map((t) => ({ role: t.role === "agent" ? "assistant" : "user", content: t.content }));
}

function isFinal(turn: TurnRecord, agentTurns: number, maxAgentTurns: number, rules: EpisodeRules): boolean {
  if (turn.role === "agent") return (rules.agentEnds ?? wantsToAnswer)(turn.content) || agentTurns >= maxAgentTurns;
  return turn.index > 0 && (rules.simulatorEnds?.(turn.content) ?? false);
}

/** Marks an error with the side whose move failed, so the failure a page shows can name it. */
function failedOnSide(side: "agent" | "simulator") {
  return (error: unknown): never => {
    if (error && typeof error === "object" && !("side" in error)) Object.assign(error, { side });
    throw error;
  };
}

export async function runEpisode(options: EpisodeOptions): Promise<EpisodeOutcome> {
  const { task, agent, simulator, persist, renderer, events, rules } = options;
  const maxAgentTurns = options.maxAgentTurns ?? rules.maxAgentTurns ?? MAX_AGENT_TURNS;
  const pageOf = rules.pageOf;
  if (pageOf && !renderer) throw new Error(`a ${task.benchmark} episode needs a page renderer`);

  const turns: TurnRecord[] = [...(options.resumeFrom ?? [])].sort((a, b) => a.index - b.index);
  turns.forEach((turn, i) => {
    if (turn.index !== i) throw new Error(`stored turns are not contiguous: expected index ${i}, found ${turn.index}`);
  });
  let waitMs = 0;
  const add = async (turn: TurnRecord) => {
    // A move that came back after the play was stopped is not stored (its claim may be gone).
    options.signal?.throwIfAborted();
    await persist(turn);
    turns.push(turn);
    waitMs += turn.waitMs ?? 0;
    events?.emit("turn", turn);
  };

  // The human opens with the task's description, unless the benchmark's simulator opens by itself.
  if (turns.length === 0 && !rules.simulatorOpens)
    await add({ index: 0, role: "simulator", content: task.problemDescription });

  const target = pageOf ? await renderer!.render(task.groundTruth) : undefined;
  let agentTurns = turns.filter((t) => t.role === "agent").length;

  for (;;) {
    options.signal?.throwIfAborted();
    const last = turns.at(-1);
    if (last && isFinal(last, agentTurns, maxAgentTurns, rules)) break;

    if (last?.role === "simulator") {
      const move = await agent
        .act({
          task: { benchmark: task.benchmark, problemDescription: task.problemDescription },
          dialogue: dialogueOf(turns),
          turn: agentTurns,
          signal: options.signal,
        })
        .catch(failedOnSide("agent"));
      const output = splitAgentOutput(move.text);
      const html = pageOf ? pageOf(output.content) : null;
      const render = html ? await renderer!.render(html) : null;
      agentTurns++;
      await add({
        index: turns.length,
        role: "agent",
        content: output.content,
        rawOutput: output.raw,
        prompt: move.prompt,
        html,
        renderId: render?.id ?? null,
        tokenLogprobs: move.logprobs ?? null,
        usage: move.usage ?? null,
        waitMs: move.waitMs,
      });
      continue;
    }

    // The agent spoke and did not end the episode (or nobody has yet): the simulated human answers.
    let agentRender: Render | null = null;
    if (pageOf && last?.html) agentRender = await renderer!.render(last.html);
    const move = await simulator
      .reply({ task, dialogue: dialogueOf(turns), agentRender, targetRender: target, signal: options.signal })
      .catch(failedOnSide("simulator"));
    await add({
      index: turns.length,
      role: "simulator",
      content: cutReply(move.text, rules.replyLimit),
      rawOutput: move.text,
      prompt: move.prompt,
      usage: move.usage ?? null,
      waitMs: move.waitMs,
    });
  }

  const outcome = rules.finalAnswer(turns);
  const result: EpisodeOutcome = { turns, ...outcome, agentTurns, waitMs };
  events?.emit("done", result);
  return result;
}

/** A page benchmark's answer: the last page an agent turn proposed (and its render). */
export function lastProposedPage(turns: readonly TurnRecord[]): {
  answer: string | null;
  answerRenderId: string | null;
} {
  const proposal = [...turns].reverse().find((t) => t.role === "agent" && t.html);
  return { answer: proposal?.html ?? null, answerRenderId: proposal?.renderId ?? null };
}

/** A written answer: what the last agent turn says after the answer marker (the whole message without one). */
export function lastAnswer(turns: readonly TurnRecord[]): { answer: string | null; answerRenderId: string | null } {
  const last = [...turns].reverse().find((t) => t.role === "agent");
  return { answer: last ? extractAnswer(last.content) : null, answerRenderId: null };
}
