import type { ReactNode } from "react";
import { isHuman, isLocal, isTab, type Player } from "@/lib/colbench/run-config";
import { runConfigSchema } from "@/lib/benchmarks/run-config";
import { benchmarkViews } from "@/components/benchmarks";
import type { RunSpan } from "@/lib/store/run-span";

// What was run, from the run's stored config: who played each side, on which tasks, how many
// samples, with which prompts, how it was scored, and when. Its own section beside the live views.

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const when = (d: Date) => `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;

function side(player: Player) {
  if (isTab(player)) {
    const t = player.tab;
    return (
      <>
        <span className="font-mono">{t.model}</span> generating in the collaborator&apos;s browser tab (WebGPU; template{" "}
        {t.template}; top-p {t.topP}, seed {t.seed})
      </>
    );
  }
  if (isHuman(player)) return <>a person, in a seat of the studio</>;
  if (isLocal(player)) {
    const l = player.local;
    return (
      <>
        <span className="font-mono">{l.model}</span> run in the playing process ({l.device}; template {l.template};
        top-p {l.topP}, seed {l.seed})
      </>
    );
  }
  return (
    <>
      <span className="font-mono">{player.model}</span> at{" "}
      <span className="break-all font-mono">{[player.baseUrl, ...(player.replicas ?? [])].join(", ")}</span>
    </>
  );
}

/**
 * `times`: rows that stand for Created/Started/Ended/Duration (the run page's live ones,
 * components/runs/RunTimes.tsx); without it they are read from `createdAt` and `span`.
 */
export function RunSpec({
  runId,
  config,
  createdAt,
  span,
  prompts,
  times,
}: {
  runId: number;
  config: unknown;
  createdAt?: Date;
  span?: RunSpan;
  prompts: boolean;
  times?: ReactNode;
}) {
  const parsed = runConfigSchema.safeParse(config);
  const rows: Array<[string, ReactNode]> = [];
  if (!parsed.success) {
    rows.push(["Settings", "none recorded: its episodes were imported from a trajectory file"]);
  } else {
    const c = parsed.data;
    rows.push(["Agent", side(c.agent)], ["Simulator", side(c.simulator)]);
    rows.push([
      "Tasks",
      <>
        <span className="font-mono" data-testid="run-selector">
          {c.selector}
        </span>
        {/* Runs made before the limit was recorded (undefined) say nothing of one rather than guess. */}
        {c.limit === undefined ? null : (
          <span data-testid="run-limit">{c.limit === null ? ", no limit" : `, limit ${c.limit}`}</span>
        )}{" "}
        →{" "}
        <span data-testid="run-task-count">
          {c.taskIds.length} task{c.taskIds.length === 1 ? "" : "s"}
        </span>
        , best-of-{c.bestOf} ({c.taskIds.length * c.bestOf} episode{c.taskIds.length * c.bestOf === 1 ? "" : "s"})
      </>,
    ]);
    rows.push([
      "Sampling",
      `temperature ${c.sampling.temperature}, at most ${c.sampling.maxTokens} tokens a turn, ${c.maxAgentTurns} agent turns`,
    ]);
    rows.push([
      "Prompts",
      <>
        {(["agent", "simulator"] as const).map((s, i) => (
          <span key={s}>
            {i ? "; " : ""}
            {prompts ? (
              <a
                href={`/api/runs/${runId}/prompts/${s}`}
                className="text-teal-700 underline"
                data-testid={`prompt-${s}`}
              >
                {s}
              </a>
            ) : (
              s
            )}{" "}
            (
            {c.promptSources[s] === "default" ? (
              "the studio's own"
            ) : (
              <span className="font-mono">{c.promptSources[s]}</span>
            )}
            )
          </span>
        ))}
      </>,
    ]);
    // How the benchmark scores its runs, where it says (frontend: the embedder and render profile).
    rows.push(...(benchmarkViews[c.benchmark].specRows?.(config) ?? []));
  }
  if (!times && createdAt && span) {
    rows.push(["Created", when(createdAt)]);
    rows.push(["Started", span.startedAt ? when(span.startedAt) : "not yet"]);
    rows.push(["Ended", span.endedAt ? when(span.endedAt) : span.startedAt ? "not yet" : "–"]);
    if (span.startedAt)
      rows.push([
        "Duration",
        `${duration((span.endedAt ?? new Date()).getTime() - span.startedAt.getTime())}${span.endedAt ? "" : " so far"}`,
      ]);
  }
  return (
    <section
      className="mb-6 rounded-lg border border-stone-200 bg-white p-4 text-sm"
      aria-labelledby="run-spec-title"
      data-testid="run-spec"
    >
      <h2 id="run-spec-title" className="mb-2 font-medium text-stone-800">
        What was run
      </h2>
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[9rem_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-stone-500">{label}</dt>
            <dd className="mb-1 min-w-0 break-words text-stone-800 sm:mb-0">{value}</dd>
          </div>
        ))}
        {times}
      </dl>
    </section>
  );
}
