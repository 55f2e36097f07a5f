import type { AgentMove, AgentTurnInput } from "../colbench/roles";
import type { RunConfig } from "../benchmarks/run-config";
import { isTab } from "../colbench/run-config";
import { turnSeed } from "../gpu/generate/local-agent";
import { HumanAgent } from "../models/human";

// The agent played by a model in the collaborator's browser tab. The studio holds its seat like a
// person's (the episode waits for a move from a browser), but the tab is given only what a model
// agent would be sent: the run's agent prompt as system message, then the agent's dialogue — the
// prompt `ModelAgent` and `LocalAgent` build — never the task's hidden side, which that tab's page
// shows its person. The stored turn carries that prompt and the tab's token counts, as a model's does.

export interface TabTurnRequest {
  episodeId: number;
  /** 0-based agent turn; the last one is the final answer. */
  turn: number;
  messages: Array<{ role: string; content: string }>;
  /** The served model, for the tab to check it loaded the one the run names. */
  model: string;
  sampling: { temperature: number; topP: number; seed: number; maxTokens: number };
}

/** The messages a model agent is sent for this turn. */
export function agentMessages(systemPrompt: string, input: AgentTurnInput): Array<{ role: string; content: string }> {
  return [{ role: "system", content: systemPrompt }, ...input.dialogue];
}

/** What the tab generates this turn from: the agent's prompt and the run's sampling, its seed mixed with the conversation. */
export function tabTurnRequest(config: RunConfig, episodeId: number, input: AgentTurnInput): TabTurnRequest {
  if (!isTab(config.agent)) throw new Error("the agent of this run is not a model in a tab");
  const messages = agentMessages(config.prompts.agent, input);
  return {
    episodeId,
    turn: input.turn,
    messages,
    model: config.agent.tab.model,
    sampling: {
      temperature: config.sampling.temperature,
      topP: config.agent.tab.topP,
      seed: turnSeed(config.agent.tab.seed, messages),
      maxTokens: config.sampling.maxTokens,
    },
  };
}

/** The agent seat a tab holds: a person's seat whose moves record the model's prompt and usage. */
export class TabAgent extends HumanAgent {
  constructor(
    readonly config: RunConfig,
    name: string,
  ) {
    super(name);
  }

  override async act(input: AgentTurnInput): Promise<AgentMove> {
    const { text, waitMs, extra } = await this.inbox.wait(input);
    return {
      text,
      prompt: agentMessages(this.config.prompts.agent, input),
      ...(extra.usage ? { usage: extra.usage } : {}),
      waitMs,
    };
  }
}
