"use client";

import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { BENCHMARKS, benchmarks } from "@/lib/benchmarks";
import { useJsonForm } from "@/components/useJsonForm";
import { benchmarkViews } from "@/components/benchmarks";
import type { Benchmark } from "@/lib/benchmarks";

const field = "rounded-md border border-stone-300 bg-white px-2.5 py-1.5 text-sm";
const label = "flex flex-col gap-1 text-xs text-stone-600";

interface Created {
  episodeId?: number;
  ownUrl?: string;
  links?: Array<{ seat: "agent" | "simulator"; link: string; expiresAt: string }>;
  error?: string;
}

/**
 * Start an episode with yourself in a seat; the other seat is a model server or a second person.
 * A second person's link is shown here, once, to you who hand it out: never on your seat's page,
 * which would let whoever sees that page take the other seat too.
 */
export function NewPlayForm({
  defaultOpponent,
  servedPolicy = null,
}: {
  defaultOpponent?: string;
  /** The policy folder the studio serves, which an agent in this tab generates with (null: none). */
  servedPolicy?: string | null;
}) {
  const router = useRouter();
  const [seat, setSeat] = useState<"simulator" | "agent" | "both">("simulator");
  const [inTab, setInTab] = useState(false);
  const tabAgent = seat === "simulator" && inTab;
  const [benchmark, setBenchmark] = useState<Benchmark>(BENCHMARKS[0]);
  const { RunOptions } = benchmarkViews[benchmark];
  const [created, setCreated] = useState<Created | null>(null);
  const { submit, error, busy } = useJsonForm<Created>("/api/play", (reply) =>
    reply.links?.length ? setCreated(reply) : router.push(reply.ownUrl!),
  );

  if (created) return <HandOut created={created} />;

  return (
    <form
      onSubmit={submit}
      className="grid max-w-3xl gap-4 rounded-lg border border-stone-200 bg-white p-6 sm:grid-cols-2"
      aria-label="Start playing"
    >
      <label className={label}>
        Benchmark
        <select
          name="benchmark"
          className={field}
          value={benchmark}
          onChange={(e) => setBenchmark(e.target.value as Benchmark)}
        >
          {BENCHMARKS.map((name) => (
            <option key={name} value={name}>
              {benchmarks[name].title}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        Task id (empty: a random task)
        <input name="taskId" type="number" min={1} className={field} />
      </label>
      <fieldset className="sm:col-span-2">
        <legend className="mb-1 text-xs text-stone-600">You play</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {[
            ["simulator", `the collaborator (you see ${benchmarks[benchmark].hidden.summary})`],
            ["agent", `the agent (you write the ${benchmarks[benchmark].answer.noun})`],
            ["both", "with a second person: you take the collaborator, they the agent"],
          ].map(([value, text]) => (
            <label key={value} className="flex items-center gap-1.5">
              <input
                type="radio"
                name="seat"
                value={value}
                checked={seat === value}
                onChange={() => setSeat(value as typeof seat)}
              />
              {text}
            </label>
          ))}
        </div>
      </fieldset>
      {seat === "simulator" ? (
        <fieldset className="sm:col-span-2" data-testid="agent-kind">
          <legend className="mb-1 text-xs text-stone-600">The agent</legend>
          <div className="flex flex-wrap gap-4 text-sm">
            <label className="flex items-center gap-1.5">
              <input type="radio" checked={!inTab} onChange={() => setInTab(false)} />a model server, or a second person
            </label>
            <label
              className="flex items-center gap-1.5"
              title={servedPolicy ? undefined : "start the studio with --policy-weights DIR"}
            >
              <input
                type="radio"

                checked={inTab}
                disabled={!servedPolicy}
                onChange={() => setInTab(true)}
              />
              agent: in this tab (served policy weights{servedPolicy ? `: ${servedPolicy}` : ", none served"})
            </label>
          </div>
          {servedPolicy ? null : (
            <p className="mt-1 text-xs text-stone-500">
              To play against a model generating in your browser (WebGPU), start the studio with{" "}
              <code>--policy-weights DIR</code>.
            </p>
          )}
        </fieldset>
      ) : null}
      {tabAgent ? (
        <div className="grid gap-3 sm:col-span-2 sm:grid-cols-4" data-testid="tab-sampling">
          <input type="hidden" name="opponent" value="tab" />
          <label className={label}>
            Temperature (0: greedy)
            <input name="tabTemperature" type="number" min={0} step="any" defaultValue={0} className={field} />
          </label>
          <label className={label}>
            Top-p
            <input name="tabTopP" type="number" min={0.01} max={1} step="any" defaultValue={1} className={field} />
          </label>
          <label className={label}>
            Seed
            <input name="tabSeed" type="number" step={1} defaultValue={0} className={field} />
          </label>
          <label className={label}>
            Tokens a turn, at most
            <input name="tabMaxTokens" type="number" min={1} max={8192} defaultValue={256} className={field} />
          </label>
        </div>
      ) : seat !== "both" ? (
        <label className={`${label} sm:col-span-2`}>
          The other side: a model server (URL#MODEL), or &quot;human&quot; for a second person who joins by link
          <input
            name="opponent"
            required
            defaultValue={defaultOpponent}
            placeholder="http://localhost:8000/v1#meta-llama/Llama-3.1-8B-Instruct"
            className={`${field} font-mono`}
          />
        </label>
      ) : null}
      {/* The benchmark's own run options (a judge, say): a played episode is scored as a run of it is. */}
      {RunOptions ? <RunOptions /> : null}
      {error ? (
        <p className="text-sm text-red-700 sm:col-span-2" role="alert">
          {error}
        </p>
      ) : null}
      <div className="sm:col-span-2">
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800 disabled:opacity-50"
        >
          {busy ? "Starting…" : "Start playing"}
        </button>
      </div>
    </form>
  );
}

function HandOut({ created }: { created: Created }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async (link: string) => {
    await navigator.clipboard.writeText(link).then(
      () => setCopied(link),
      () => setCopied(null),
    );
  };
  return (
    <section
      className="grid max-w-3xl gap-3 rounded-lg border border-stone-200 bg-white p-6"
      aria-label="Seat links to hand out"
      data-testid="hand-out"
    >
      <p className="text-sm text-stone-700">
        Episode #{created.episodeId} is ready. Send the other person this link: it opens their seat and nothing else
        until {created.links![0]!.expiresAt.slice(0, 16).replace("T", " ")} UTC, and it is shown only now. You can make
        another or revoke it on the{" "}
        <Link href={`/episodes/${created.episodeId}#seat-links`} className="text-teal-700 underline">
          episode&apos;s page
        </Link>
        .
      </p>
      {created.links!.map((l) => (
        <p key={l.link} className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-medium">{l.seat === "agent" ? "The agent's seat" : "The collaborator's seat"}:</span>
          <code className="break-all rounded bg-stone-100 px-1" data-testid={`hand-out-${l.seat}`}>
            {l.link}
          </code>
          <button
            type="button"
            onClick={() => void copy(l.link)}
            className="rounded-md px-2 py-0.5 text-xs text-teal-700 ring-1 ring-stone-200 hover:bg-stone-100"
          >
            {copied === l.link ? "copied" : "copy"}
          </button>
        </p>
      ))}
      <div>
        {/* A plain link: your own seat opens as you, with no key. */}
        <Link
          href={created.ownUrl!}
          className="inline-block rounded-md bg-teal-700 px-4 py-2 text-sm font-medium text-white hover:bg-teal-800"
          data-testid="take-own-seat"
        >
          Take my seat
        </Link>
      </div>
    </section>
  );
}
