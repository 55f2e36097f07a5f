"use client";

import { useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import type { BrowserScoresBody, ScoreRequestMessage, ScoringMessage, UsedDefinition } from "@/lib/gpu/browser-scoring";
import type { BrowserScoringRecord } from "@/lib/store/episode-scores";
import type { RecordedTemplate } from "@/lib/sweet/chat-template";
import type { ScoreComparison, StoredTurn } from "@/lib/sweet/compare-scores";
import { describeRankSettings, describeTemplate, type RankSettings } from "@/lib/sweet/rank-settings";

interface Status {
  state: "idle" | "fetching" | "loading" | "scoring" | "storing" | "stored" | "failed";
  device?: string;
  loading?: { model: string; loaded: number; total: number };
  scoring?: { done: number; total: number };
  definition?: UsedDefinition;
  stored?: { id: number; turns: number; candidates: number; comparison: ScoreComparison };
  error?: string;
}

export interface EpisodeScoring {
  /** The run's recorded template and rank settings (null where not recorded). */
  run: { template: RecordedTemplate | null; settings: RankSettings | null };
  /** What `rank` stored for the episode's agent turns. */
  stored: StoredTurn[];
  /** The latest scores a browser computed, kept as their own record. */
  browser: BrowserScoringRecord | null;
}

const button = "rounded-md bg-teal-700 px-3 py-1 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50";
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const num = (x: number | null | undefined) => (x === null || x === undefined ? "—" : x.toFixed(5));
const diff = (x: number | null) => (x === null ? "—" : x === 0 ? "0" : x.toExponential(1));

const templateFrom: Record<UsedDefinition["templateFrom"], string> = {
  run: "the run's record",
  critic: "the critic's own family: the run records none",
  fallback: "the Llama 3 fallback: the run records none",
};
const settingsFrom: Record<UsedDefinition["settingsFrom"], string> = {
  run: "recorded by the run's ranking",
  default: "rank's defaults: the run records none",
};

/**
 * "Score turns in this browser": the critic and policy the studio serves are loaded onto this
 * machine's GPU in a Web Worker (WebGPU), and every agent turn (and its candidates) is scored there in
 * the run's own definition (its recorded template and rank settings). The result is kept as the
 * browser's own record, beside what `rank` stored and compared with it; it never replaces it.
 */
export function BrowserScoring({
  episodeId,
  served,
  scoring,
}: {
  episodeId: number;
  served: { policy: string | null; critic: string | null };
  scoring: EpisodeScoring;
}) {
  const { status, start } = useBrowserScoring(episodeId);
  const record = scoring.browser;
  const definitionLine = <DefinitionLine run={scoring.run} />;
  const shownLine = <ScoresShown scoring={scoring} />;

  if (!served.policy || !served.critic) {
    return (
      <section className="mb-6 text-xs text-stone-500" data-testid="browser-scoring-off">
        {shownLine}
        <p>
          To score these turns in your browser (WebGPU), start the studio with{" "}
          <code>--policy-weights DIR --critic-weights DIR</code>.
        </p>
      </section>
    );
  }

  const busy = ["fetching", "loading", "scoring", "storing"].includes(status.state);
  return (
    <section
      className="mb-6 rounded-lg border border-stone-200 bg-white p-4 text-sm"
      data-testid="browser-scoring"
      data-state={status.state}
      aria-labelledby="browser-scoring-title"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="browser-scoring-title" className="font-medium text-stone-800">
            Critic advantages
          </h2>
          <p className="text-xs text-stone-500">
            this browser can score with critic <code>{served.critic}</code> · policy <code>{served.policy}</code> ·
            WebGPU on your machine; nothing is sent to a model server
          </p>
        </div>
        <button type="button" className={button} disabled={busy} onClick={() => void start()}>
          Score turns in this browser
        </button>
      </div>
      <div className="mt-2 space-y-1 text-xs text-stone-600">
        {definitionLine}
        {shownLine}
      </div>
      <ScoringStatus status={status} />
      {record ? <RecordView record={record} stored={scoring.stored} /> : null}
    </section>
  );
}

/** The browser's scoring of one episode: a Web Worker scores its turns on WebGPU, then the scores are kept. */
function useBrowserScoring(episodeId: number): { status: Status; start: () => Promise<void> } {
  const router = useRouter();
  const [status, setStatus] = useState<Status>({ state: "idle" });
  const worker = useRef<Worker | null>(null);
  useEffect(() => () => worker.current?.terminate(), []);

  const fail = (error: string) => {
    worker.current?.terminate();
    worker.current = null;
    setStatus((s) => ({ ...s, state: "failed", error }));
  };

  const store = async (device: string, turns: BrowserScoresBody["turns"], definition: UsedDefinition) => {
    setStatus((s) => ({ ...s, state: "storing" }));
    const body: BrowserScoresBody = { device, definition, turns };
    const response = await fetch(`/api/episodes/${episodeId}/advantages`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as { error?: string } & Partial<
      NonNullable<Status["stored"]>
    >;
    if (!response.ok || !answer.comparison) return fail(answer.error ?? `storing the scores: HTTP ${response.status}`);
    setStatus((s) => ({
      ...s,
      state: "stored",
      stored: {
        id: answer.id ?? 0,
        turns: answer.turns ?? 0,
        candidates: answer.candidates ?? 0,
        comparison: answer.comparison!,
      },
    }));
    router.refresh();
  };

  const start = async () => {
    setStatus({ state: "fetching" });
    const response = await fetch(`/api/episodes/${episodeId}/score-inputs`);
    if (!response.ok)
      return fail(((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${response.status}`);
    const inputs = (await response.json()) as ScoreRequestMessage["inputs"];
    const w = new Worker(new URL("../../workers/browser/gpu-scoring.worker.ts", import.meta.url), {
      type: "module",
      name: "gpu-scoring",
    });
    worker.current = w;
    let device = "WebGPU";
    w.onerror = (event) => fail(event.message || "the scoring worker failed to start");
    w.onmessage = (event: MessageEvent<ScoringMessage>) => {
      const m = event.data;
      switch (m.type) {
        case "adapter":
          device = m.device;
          return setStatus((s) => ({ ...s, state: "loading", device: m.device }));
        case "loading":
          return setStatus((s) => ({
            ...s,
            state: "loading",
            loading: { model: m.model, loaded: m.loaded, total: m.total },
          }));
        case "definition":
          return setStatus((s) => ({ ...s, definition: m.definition }));
        case "scoring":
          return setStatus((s) => ({ ...s, state: "scoring", scoring: { done: m.done, total: m.total } }));
        case "done":
          w.terminate();
          worker.current = null;
          return void store(device, m.turns, m.definition);
        case "error":
          return fail(m.message);
      }
    };
    const message: ScoreRequestMessage = {
      type: "score",
      weightsBase: `${window.location.origin}/api/weights`,
      inputs,
    };
    w.postMessage(message);
  };

  return { status, start };
}

/** The run's recorded definition the scores are computed in: its template and rank settings. */
function DefinitionLine({ run }: { run: EpisodeScoring["run"] }) {
  return (
    <p data-testid="scoring-definition">
      Scored as the run defines it: template{" "}
      {run.template ? <code>{describeTemplate(run.template)}</code> : "none recorded"} ·{" "}
      {run.settings
        ? describeRankSettings(run.settings)
        : "rank settings not recorded (ranked before they were, or not ranked yet)"}
    </p>
  );
}

/** Which scores the chart and candidates show: rank's, advantages stored with the run, a browser's, or none. */
function ScoresShown({ scoring }: { scoring: EpisodeScoring }) {
  const ranked = scoring.stored.filter((t) => t.candidates.some((c) => c.criticScore !== null));
  const critics = [
    ...new Set(ranked.flatMap((t) => t.candidates.flatMap((c) => (c.criticModel ? [c.criticModel] : [])))),
  ];
  const policies = [...new Set(ranked.flatMap((t) => t.candidates.map((c) => c.policyModel)))];

  const record = scoring.browser;
  return ranked.length ? (
    <p data-testid="scores-shown" data-source="rank">
      The chart and the candidates show what <code>colbench rank</code> stored ({ranked.length} of{" "}
      {scoring.stored.length} agent turns; critic {critics.join(", ") || "?"}, policy log-probs by {policies.join(", ")}
      ). A browser&apos;s scores are kept beside them and never replace them.
    </p>
  ) : scoring.stored.some((t) => t.advantage !== null) ? (
    <p data-testid="scores-shown" data-source="stored">
      No candidate is ranked: the chart shows advantages stored with the run (<code>colbench import-advantages</code>).
      A browser&apos;s scores are kept beside them.
    </p>
  ) : record ? (
    <p data-testid="scores-shown" data-source="browser">
      Nothing is ranked for this episode: the chart shows the scores a browser computed on {record.device} (
      {new Date(record.createdAt).toISOString().slice(0, 16).replace("T", " ")} UTC), which are not part of the
      run&apos;s ranking.
    </p>
  ) : (
    <p data-testid="scores-shown" data-source="none">
      Nothing is ranked for this episode yet.
    </p>
  );
}

/** What the scoring in this browser is doing now: the GPU, loading, the definition used, scoring, keeping, an error. */
function ScoringStatus({ status }: { status: Status }) {
  return (
    <div className="mt-2 space-y-1 text-stone-700" aria-live="polite" data-testid="browser-scoring-status">
      {status.device ? <p>GPU: {status.device}</p> : null}
      {status.state === "fetching" ? <p>Reading the episode…</p> : null}
      {status.loading && status.state === "loading" ? (
        <p className="flex items-center gap-2">
          Loading the {status.loading.model}: {mb(status.loading.loaded)} of {mb(status.loading.total)}
          <progress max={status.loading.total} value={status.loading.loaded} data-testid="loading-progress" />
        </p>
      ) : null}
      {status.definition ? (
        <p data-testid="browser-definition">
          Chat template: {describeTemplate(status.definition.template)} ({templateFrom[status.definition.templateFrom]})
          · {describeRankSettings(status.definition.settings)} ({settingsFrom[status.definition.settingsFrom]})
        </p>
      ) : null}
      {status.scoring && status.state === "scoring" ? (
        <p className="flex items-center gap-2">
          Scoring agent turns: {status.scoring.done} of {status.scoring.total}
          <progress max={status.scoring.total} value={status.scoring.done} data-testid="scoring-progress" />
        </p>
      ) : null}
      {status.state === "storing" ? <p>Keeping the scores…</p> : null}
      {status.stored ? (
        <p data-testid="browser-scoring-stored">
          Kept as this browser&apos;s record of {status.stored.turns} agent turn{status.stored.turns === 1 ? "" : "s"}
          {status.stored.candidates ? ` (${status.stored.candidates} candidates)` : ""}; what rank stored is unchanged.
        </p>
      ) : null}
      {status.error ? (
        <p role="alert" className="text-red-700">
          {status.error}
        </p>
      ) : null}
    </div>
  );
}

/** The latest browser record: how it was computed, how far from rank's values, turn by turn. */
function RecordView({ record, stored }: { record: BrowserScoringRecord; stored: StoredTurn[] }) {
  const c = record.comparison;
  const byTurn = new Map(stored.map((t) => [t.turn, t]));
  const compared = c.compared.critic + c.compared.policy + c.compared.advantage;
  return (
    <div
      className="mt-3 border-t border-stone-100 pt-3 text-xs text-stone-600"
      data-testid="browser-record"
      data-record={record.id}
    >
      <p>
        Browser record #{record.id}: {record.device},{" "}
        {new Date(record.createdAt).toISOString().slice(0, 16).replace("T", " ")} UTC; critic{" "}
        <code>{record.criticModel}</code>, policy <code>{record.policyModel}</code>; {describeTemplate(record.template)}{" "}
        ({templateFrom[record.templateFrom]}), {describeRankSettings(record.settings)} (
        {settingsFrom[record.settingsFrom]}).
      </p>
      <p
        data-testid="browser-comparison"
        data-max-diff={c.maxDiff ?? ""}
        data-compared={compared}
        data-max-critic={c.max.critic ?? ""}
        data-max-policy={c.max.policy ?? ""}
        data-max-advantage={c.max.advantage ?? ""}
        data-max-relative={c.maxRelative ?? ""}
      >
        {compared
          ? `Against rank's stored values: max |browser − stored| ${diff(c.maxDiff)} over ${compared} values${c.maxRelative !== undefined && c.maxRelative !== null ? `, relative to their size at most ${diff(c.maxRelative)}` : ""} (critic scores ${diff(c.max.critic)} over ${c.compared.critic}, policy log-probs ${diff(c.max.policy)} over ${c.compared.policy}, advantages ${diff(c.max.advantage)} over ${c.compared.advantage})${c.worst ? `; largest at turn ${c.worst.turn}, candidate ${c.worst.candidate}, ${c.worst.value}` : ""}.`
          : "Nothing rank stored was comparable when this record was kept."}
        {c.otherModels.critics.length || c.otherModels.policies.length
          ? ` Not compared (other models): ${[...c.otherModels.critics.map((m) => `critic ${m}`), ...c.otherModels.policies.map((m) => `policy ${m} (the sampling server's log-probs)`)].join(", ")}.`
          : ""}
        {c.unranked ? ` ${c.unranked} turn${c.unranked === 1 ? "" : "s"} had nothing ranked.` : ""}
      </p>
      <table className="mt-2 w-full text-left tabular-nums" data-testid="score-table">
        <thead>
          <tr className="text-stone-500">
            <th className="font-normal">turn</th>
            <th className="font-normal">advantage stored by rank</th>
            <th className="font-normal">advantage in the browser</th>
            <th className="font-normal">|Δ|</th>
          </tr>
        </thead>
        <tbody>
          {record.turns.map((t) => {
            const own = byTurn.get(t.turn)?.candidates.find((x) => x.index === 0);
            const rank = own?.criticScore !== null && own?.criticScore !== undefined ? own.advantage : null;
            return (
              <tr
                key={t.turn}
                data-testid="score-row"
                data-turn={t.turn}
                data-stored={rank ?? ""}
                data-browser={t.advantage ?? ""}
              >
                <td>{t.turn}</td>
                <td>{num(rank)}</td>
                <td>{num(t.advantage)}</td>
                <td>{rank !== null && t.advantage !== null ? diff(Math.abs(rank - t.advantage)) : "—"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
