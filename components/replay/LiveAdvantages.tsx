"use client";

import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { SeatTurn } from "@/lib/play/seat-turns";
import type { LiveAdvantage } from "@/lib/store/episode-scores";
import type { LiveAdvantageState } from "./useLiveAdvantages";

// The live advantages of an episode as it plays: a badge beside each agent turn, and the running line
// over the episode with what computed it (device, critic, policy, template and settings).

/** Where the values were computed: the studio's process, model servers (device "servers: named by …") or a browser. */
const where = (v: LiveAdvantage) =>
  v.device.startsWith("studio: ")
    ? `the studio on ${v.device.slice("studio: ".length)}`
    : v.device.startsWith("servers: ")
      ? `model servers ${v.device.slice("servers: ".length)}`
      : `a browser on ${v.device}`;

/** What computed the values: one line per distinct device, models and definition. */
function provenance(values: LiveAdvantage[]): string[] {
  const lines = values.map(
    (v) => `${where(v)} · critic ${v.criticModel} · policy ${v.policyModel} · template ${v.template} · ${v.settings}`,
  );
  return [...new Set(lines)];
}

/** The advantage beside an agent turn: its value, "scoring…" while it is computed, nothing for other turns. */
export function LiveAdvantageBadge({ turn, state }: { turn: SeatTurn; state: LiveAdvantageState }) {
  if (!state.on || turn.role !== "agent") return null;
  const value = state.values.find((v) => v.turn === turn.index);
  if (value && value.advantage !== null)
    return (
      <span
        className={`font-mono normal-case ${value.advantage >= 0 ? "text-emerald-700" : "text-rose-700"}`}
        data-testid="live-advantage"
        data-turn={turn.index}
        data-value={value.advantage}
        title={`critic ${value.criticScore?.toFixed(4) ?? "—"} − policy ${value.policyMean?.toFixed(4) ?? "—"} (${provenance([value])[0]})`}
      >
        live advantage {value.advantage >= 0 ? "+" : ""}
        {value.advantage.toFixed(3)}
      </span>
    );
  return state.pending.includes(turn.index) ? (
    <span className="normal-case text-stone-400" data-testid="live-advantage-pending" data-turn={turn.index}>
      advantage: scoring…
    </span>
  ) : null;
}

/** The running line of live advantages over the episode's agent turns, and what computed them. */
export function LiveAdvantageLine({ state, title }: { state: LiveAdvantageState; title: string }) {
  if (!state.on) return null;
  const points = state.values.flatMap((v) =>
    v.advantage === null ? [] : [{ turn: `turn ${v.turn}`, index: v.turn, advantage: v.advantage }],
  );
  return (
    <figure
      className="mb-4 rounded-lg border border-stone-200 bg-white p-3"
      data-testid="live-advantages"
      data-where={state.where}
      data-points={JSON.stringify(points.map((p) => ({ index: p.index, advantage: p.advantage })))}
    >
      <figcaption className="text-sm font-medium text-stone-700">
        {title}{" "}
        <span className="font-normal text-stone-500">
          (critic log-prob − policy log-prob of each agent turn, computed as it is stored)
        </span>
      </figcaption>
      {points.length ? (
        <div style={{ height: 140 }}>
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={points} margin={{ left: 4, right: 8, top: 8 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="turn" tick={{ fontSize: 11 }} />
              <YAxis tick={{ fontSize: 11 }} width={48} />
              <ReferenceLine y={0} stroke="#78716c" />
              <Tooltip formatter={(v) => (typeof v === "number" ? v.toFixed(4) : String(v))} />
              <Line dataKey="advantage" stroke="#0f766e" isAnimationActive={false} dot />
            </LineChart>
          </ResponsiveContainer>
        </div>
      ) : (
        <p className="mt-1 text-xs text-stone-500">No agent turn scored yet.</p>
      )}
      <div className="mt-1 space-y-0.5 text-xs text-stone-500" data-testid="live-advantages-by" aria-live="polite">
        {provenance(state.values).map((line) => (
          <p key={line}>Computed by {line}</p>
        ))}
        {state.where === "tab" && state.loading ? (
          <p>
            Loading the {state.loading.model} onto this machine&apos;s GPU: {(state.loading.loaded / 1e6).toFixed(1)} of{" "}
            {(state.loading.total / 1e6).toFixed(1)} MB
          </p>
        ) : null}
        {state.pending.length ? <p>Scoring turn {state.pending.join(", ")}…</p> : null}
        {state.error ? (
          <p role="alert" className="text-red-700">
            {state.error}
          </p>
        ) : null}
      </div>
    </figure>
  );
}
