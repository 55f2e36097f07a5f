import Link from "next/link";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { getStore } from "@/lib/store";
import { seesHidden } from "@/lib/access/viewer";
import { currentViewer } from "@/app/_lib/viewer";
import { agreementReport, CATEGORIES, type AgreementReport } from "@/lib/label/report";
import { PageHeader } from "@/components/PageHeader";
import { AgreementCharts } from "@/components/label/AgreementCharts";
import { FlaggedPairs } from "@/components/label/FlaggedPairs";
import { KappaHeatmap, MeanKappa } from "@/components/label/KappaHeatmap";
import { QuotaSetting } from "@/components/label/QuotaSetting";
import { FEW_SHARED } from "@/lib/label/pairwise";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Agreement" };

const fixed = (x: number | null, digits = 3) => (x === null ? "undefined" : x.toFixed(digits));
const pct = (x: number | null) => (x === null ? "–" : `${(x * 100).toFixed(0)}%`);
const NAMES: Record<string, string> = { a: "A", b: "B", tie: "tie", both_bad: "both bad" };
const cell = "px-3 py-1.5 text-right tabular-nums";
const table = "w-full rounded-lg border border-stone-200 bg-white text-sm";

export default async function AgreementPage({ params }: { params: Promise<{ id: string }> }) {
  const id = Number.parseInt((await params).id, 10);
  const store = await getStore();
  const queue = Number.isSafeInteger(id) ? await store.queues.find(id) : null;
  // Researchers and admins only (the gate refuses annotators before this page runs).
  if (!queue || !seesHidden(await currentViewer())) notFound();
  const report = agreementReport(await store.labels.ofQueue(queue.id));
  const flags = await store.labels.flags(queue.id);
  return (
    <article data-testid="agreement">
      <Link href="/annotate" className="text-sm text-teal-700 hover:underline">
        ← queues
      </Link>
      <PageHeader title={`Agreement · ${queue.name}`}>
        {report.labels} labels on {report.items} pairs, {report.overlapping} of them labelled by two people or more.{" "}
        <Downloads queue={queue} />
      </PageHeader>
      <QuotaSetting queueId={queue.id} quota={queue.quota} />
      <Headline report={report} />
      {report.annotators.length ? <AgreementCharts report={report} /> : null}
      <section className="mt-6">
        <h2 className="mb-2 text-lg font-semibold">Cohen&apos;s kappa between every two people</h2>
        <KappaHeatmap report={report} />
        <CohenTable report={report} queueId={queue.id} />
      </section>
      <section className="mt-6">
        <PeopleTable report={report} />
      </section>
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <section>
          <ConfusionTable report={report} />
        </section>
        <section>
          <VersusSourceTable report={report} />
        </section>
      </div>
      <FlaggedPairs flags={flags} />
    </article>
  );
}

/** The report as JSON, and the queue's exports (the policy or critic format its kind trains). */
function Downloads({ queue }: { queue: { id: number; kind: string } }) {
  const formats = [
    "raw",
    queue.kind === "trajectory" ? "openrlhf-critic" : "openrlhf-policy",
    ...(queue.kind === "turn" ? ["trl-dpo"] : []),
  ];
  return (
    <>
      <a href={`/api/queues/${queue.id}/agreement`} className="text-teal-700 underline">
        JSON
      </a>
      {" · "}
      <a href={`/api/queues/${queue.id}/agreement?format=cohen-csv`} className="text-teal-700 underline">
        pairwise kappas (CSV)
      </a>
      {" · exports: "}
      {formats.map((f, i) => (
        <span key={f}>
          {i ? ", " : ""}
          <a href={`/api/queues/${queue.id}/export?format=${f}`} className="text-teal-700 underline">
            {f}
          </a>
        </span>
      ))}
    </>
  );
}

/** The four figures a lead reads first: agreement among people, and with the rule or critic. */
function Headline({ report }: { report: AgreementReport }) {
  return (
    <dl className="mb-6 grid gap-3 sm:grid-cols-4">
      {[
        ["Fleiss' kappa", fixed(report.fleiss), "fleiss"],
        ["Krippendorff's alpha", fixed(report.alpha), "alpha"],
        ["Agree with rule / critic", `${pct(report.source.rate)} of ${report.source.labelled}`, "source-rate"],
        ["Kappa with rule / critic", fixed(report.source.kappa), "source-kappa"],
      ].map(([label, value, testId]) => (
        <div key={label} className="rounded-lg border border-stone-200 bg-white p-3">
          <dt className="text-xs text-stone-500">{label}</dt>
          <dd className="text-xl font-semibold tabular-nums" data-testid={testId}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Each person's labels, mean kappa with the others, gold accuracy, agreement with the source and pace. */
function PeopleTable({ report }: { report: AgreementReport }) {
  const means = new Map(report.meanKappa.map((m) => [m.name, m]));
  return (
    <>
      <h2 className="mb-2 text-lg font-semibold">People</h2>
      <table className={table} data-testid="annotators">
        <thead className="bg-stone-100 text-left text-xs uppercase text-stone-500">
          <tr>
            <th className="px-3 py-1.5">Person</th>
            <th className={cell}>Labels</th>
            <th className={cell} title="mean Cohen's kappa over the people they share pairs with (how many)">
              Mean κ
            </th>
            <th className={cell}>Gold accuracy</th>
            <th className={cell}>With rule / critic</th>
            <th className={cell}>Median time</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {report.annotators.map((a) => (
            <tr key={a.userId}>
              <td className="px-3 py-1.5">{a.name}</td>
              <td className={cell}>{a.labels}</td>
              <td className={cell}>{means.get(a.name) ? <MeanKappa mean={means.get(a.name)!} /> : "–"}</td>
              <td className={cell}>{a.gold.labelled ? `${pct(a.gold.accuracy)} of ${a.gold.labelled}` : "–"}</td>
              <td className={cell}>{a.source.labelled ? `${pct(a.source.rate)} of ${a.source.labelled}` : "–"}</td>
              <td className={cell}>{a.medianMs === null ? "–" : `${(a.medianMs / 1000).toFixed(1)} s`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/**
 * Every two people's kappa as a list, folded under the heatmap: at 20 people it is 190 rows, read
 * only when a lead wants the figures side by side (the CSV holds the same rows).
 */
function CohenTable({ report, queueId }: { report: AgreementReport; queueId: number }) {
  if (!report.cohen.length) return null;
  return (
    <details className="mt-3" data-testid="cohen-list">
      <summary className="cursor-pointer text-sm text-teal-700">
        The {report.cohen.length} pairs of people as a list (or{" "}
        <a href={`/api/queues/${queueId}/agreement?format=cohen-csv`} className="underline">
          as CSV
        </a>
        )
      </summary>
      <table className={`${table} mt-2`} data-testid="cohen">
        <tbody className="divide-y divide-stone-100">
          {report.cohen.map((c) => (
            <tr key={`${c.a}-${c.b}`}>
              <td className="px-3 py-1.5">
                {c.a} · {c.b}
              </td>
              <td className={cell}>
                {c.shared} shared
                {c.shared < FEW_SHARED ? (
                  <span
                    className="ml-1 text-amber-700"
                    title={`fewer than ${FEW_SHARED} shared pairs: this kappa can swing widely`}
                  >
                    (few)
                  </span>
                ) : null}
              </td>
              <td className={cell}>agree {pct(c.observed)}</td>
              <td className={cell} data-testid="kappa">
                κ {fixed(c.kappa)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** Krippendorff's coincidences between people, by stored side. */
function ConfusionTable({ report }: { report: AgreementReport }) {
  return (
    <>
      <h2 className="mb-2 text-lg font-semibold">Confusion between people</h2>
      <p className="mb-2 text-xs text-stone-500">
        Coincidences: for each pair, each two people&apos;s labels (Krippendorff&apos;s weighting). A and B are the
        pair&apos;s stored sides, not the left and right each person saw: the desk shows every person the two sides in
        an order of their own, and a press on the left side is stored as whichever side was shown there.
      </p>
      <table className={table} data-testid="confusion">
        <thead className="bg-stone-100 text-xs text-stone-500">
          <tr>
            <th />
            <CategoryHeaders />
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {report.coincidence.map((row, i) => (
            <tr key={CATEGORIES[i]}>
              <th className="px-3 py-1.5 text-left text-xs text-stone-500">{NAMES[CATEGORIES[i]!]}</th>
              {row.map((v, j) => (
                <td key={j} className={cell}>
                  {Number.isInteger(v) ? v : v.toFixed(1)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** What people said against what the rule or critic that made each pair said. */
function VersusSourceTable({ report }: { report: AgreementReport }) {
  const { rows, matrix } = report.versusSource;
  return (
    <>
      <h2 className="mb-2 text-lg font-semibold">People against the rule or critic</h2>
      <table className={table} data-testid="versus-source">
        <thead className="bg-stone-100 text-xs text-stone-500">
          <tr>
            <th className="px-3 py-1.5 text-left">source said ↓ / people said →</th>
            <CategoryHeaders />
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {matrix.map((row, i) => (
            <tr key={rows[i]}>
              <th className="px-3 py-1.5 text-left text-xs text-stone-500">
                {rows[i] === "tie" ? "scored equal" : NAMES[rows[i]!]}
              </th>
              {row.map((v, j) => (
                <td key={j} className={cell}>
                  {v}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** One header cell per label category, in CATEGORIES order (the matrices' columns). */
function CategoryHeaders() {
  return CATEGORIES.map((c) => (
    <th key={c} className={cell}>
      {NAMES[c]}
    </th>
  ));
}
