"use client";

import type { TabAgentView } from "@/lib/play/seat-views";
import type { InTabAgentState } from "./useInTabAgent";

// The agent generating in this tab, as the collaborator's seat shows it: which model and sampling,
// the GPU, the weights loading (bytes and what this browser's cache held), the turn being written
// as it streams, and why it cannot run where it cannot.

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const folderName = (model: string) => model.split(/[\\/]/).filter(Boolean).pop() ?? model;

const WHAT_WORKS: Record<NonNullable<InTabAgentState["error"]>["kind"], string> = {
  "no-webgpu":
    "This tab cannot run the agent. What would work: Chrome or Edge 113+ (or Safari 26, Firefox 141+ on Windows) with a GPU, over https or localhost; or start an episode whose agent is a model server.",
  memory: "",
  failed: "",
  refused: "",
};

export function InTabAgent({
  agent,
  state,
  retry,
}: {
  agent: TabAgentView;
  state: InTabAgentState;
  retry: () => void;
}) {
  const sampling =
    agent.temperature === 0 ? "greedy" : `temperature ${agent.temperature}, top-p ${agent.topP}, seed ${agent.seed}`;
  const loading = state.loading;
  return (
    <section
      className="mt-4 rounded-lg border border-teal-200 bg-teal-50/40 p-3 text-sm"
      aria-label="The agent in this tab"
      data-testid="in-tab-agent"
      data-phase={state.phase}
    >
      <p className="text-stone-700">
        The agent is <code title={agent.model}>{folderName(agent.model)}</code> generating in this tab (WebGPU, no model
        server): template {agent.template} · {sampling} · at most {agent.maxTokens} tokens a turn. It is sent only what
        the agent may see, never the hidden information.
      </p>
      {state.device ? <p className="text-xs text-stone-600">GPU: {state.device}</p> : null}
      {state.phase === "loading" ? (
        <div className="mt-2 text-xs text-stone-700" data-testid="tab-agent-loading">
          {loading ? (
            <>
              <p className="flex flex-wrap items-center gap-2">
                Loading the policy: {mb(loading.loaded)} of {mb(loading.total)}
                <progress
                  className="w-48"
                  max={loading.total || 1}
                  value={loading.loaded}
                  data-testid="tab-agent-progress"
                  aria-label="weights loaded"
                />
              </p>
              <p data-testid="tab-agent-cache">
                {loading.cachedFiles
                  ? `${loading.cachedFiles} of ${loading.files} weight file${loading.files === 1 ? "" : "s"} (${mb(loading.cachedBytes)}) from this browser's cache`
                  : `from the studio (this browser's cache held none of the ${loading.files} weight file${loading.files === 1 ? "" : "s"})`}
              </p>
            </>
          ) : (
            <p>Opening the GPU and reading the model&apos;s files…</p>
          )}
        </div>
      ) : null}
      {state.phase === "ready" && !state.sent ? (
        <p className="mt-2 text-xs text-stone-600" data-testid="tab-agent-ready">
          Loaded{loading ? ` (${mb(loading.total)}` : ""}
          {loading?.cachedFiles
            ? `, ${loading.cachedFiles} of ${loading.files} files from this browser's cache)`
            : loading
              ? ")"
              : ""}
          ; it writes as soon as it is the agent&apos;s move.
        </p>
      ) : null}
      {state.turn && (state.phase === "writing" || state.phase === "sending") ? (
        <div className="mt-2" aria-live="polite">
          <p className="text-xs text-stone-600">
            {state.phase === "writing" ? "Writing" : "Sending"} agent turn {state.turn.index + 1} · {state.turn.tokens}{" "}
            tokens
          </p>
          <pre
            className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-white p-2 font-mono text-xs text-stone-800"
            data-testid="tab-agent-stream"
          >
            {state.turn.text || "…"}
          </pre>
        </div>
      ) : null}
      {state.sent ? (
        <p className="mt-2 text-xs text-stone-600" data-testid="tab-agent-sent">
          Agent turn {state.sent.index + 1} sent: {state.sent.tokens} tokens, first in{" "}
          {Math.round(state.sent.firstTokenMs).toLocaleString("en")} ms
          {state.sent.tokensPerSecond === null ? "" : `, then ${state.sent.tokensPerSecond.toFixed(1)} tokens/s`}.
        </p>
      ) : null}
      {state.error ? (
        <div
          role="alert"
          className="mt-2 text-sm text-red-700"
          data-testid="tab-agent-error"
          data-kind={state.error.kind}
        >
          <p>{state.error.message}</p>
          {WHAT_WORKS[state.error.kind] ? <p className="mt-1">{WHAT_WORKS[state.error.kind]}</p> : null}
          {state.template ? (
            <button
              type="button"
              onClick={retry}
              className="mt-1 rounded-md border border-red-300 px-2 py-0.5 text-xs hover:bg-red-50"
            >
              Write the turn again
            </button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
