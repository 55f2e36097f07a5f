// Where the backend sandbox's time goes, per answer: CPU of the worker, of its zygote (which forks
// the children) and of the children, with the minor page faults of each (copy-on-write faults are
// most of a child's cost, and unlike CPU time they do not move with the VM's speed), and the size
// of the zygote that every fork copies. Scores the 1000 official ground truths as their own answers
// with one worker (so the figures are per process, not shared between two).
//
//   npx tsx bench/backend-costs.ts [--passes N]

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { sharedColbenchDir } from "../lib/paths";
import { BackendScorer } from "../lib/scoring/backend/scorer";
import { processStat, type ProcessStat } from "./proc-cpu";

const { values } = parseArgs({
  options: {
    passes: { type: "string", default: "2" },
  },
});

const file = path.join(sharedColbenchDir(), "backend_test.jsonl");
if (!existsSync(file)) {
  console.error(`bench/backend-costs: ${file} is absent; this benchmark needs the official ColBench test set there.`);
  process.exit(2);
}
const tasks = readFileSync(file, "utf8")
  .split("\n")
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as { ground_truth: string; test_cases: Record<string, string> });

const score = (scorer: BackendScorer, list: typeof tasks) =>
  Promise.all(
    list.map((t) => scorer.score({ groundTruth: t.ground_truth, testCases: t.test_cases, answer: t.ground_truth })),
  );

// A fork per request: these are per-child figures (a resident child is counted only once it is
// reaped); bench/backend-scoring.ts measures resident children.
const scorer = await BackendScorer.start({ workers: 1, numpyLane: false, reuseChildren: false });
try {
  console.log(`children: ${scorer.isolation.fork}`);
  await score(scorer, tasks.slice(0, 50)); // warm: the zygote has imported what the first tasks ask for
  const [worker] = scorer.workerPids();
  const [zygote] = scorer.zygotePids();
  for (let pass = 1; pass <= Number(values.passes); pass++) {
    const before = [processStat(worker!), processStat(zygote!)];
    const started = performance.now();
    const results = await score(scorer, tasks);
    const wall = performance.now() - started;
    const after = [processStat(worker!), processStat(zygote!)];
    const children = results.reduce((sum, r) => sum + (r.tests.length ? 1 : 0), 0);
    const per = (x: number, n: number) => (x / n).toFixed(2);
    const d = (i: number, key: keyof ProcessStat) => after[i]![key] - before[i]![key];
    console.log(
      `pass ${pass}: ${tasks.length} answers in ${(wall / 1000).toFixed(2)} s | CPU ms per answer: worker ${per(d(0, "cpu") * 1000, tasks.length)},` +
        ` zygote ${per(d(1, "cpu") * 1000, tasks.length)}, children ${per(d(1, "childCpu") * 1000, children)}` +
        ` | minor faults: zygote ${per(d(1, "faults"), tasks.length)} per answer, ${per(d(1, "childFaults"), children)} per child`,
    );
  }
  const rollup = readFileSync(`/proc/${zygote}/smaps_rollup`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(rollup)?.[1] ?? NaN);
  const mappings = readFileSync(`/proc/${zygote}/maps`, "utf8").trim().split("\n").length;
  console.log(
    `zygote: ${(kb("Rss") / 1024).toFixed(1)} MiB resident, ${(kb("Anonymous") / 1024).toFixed(1)} MiB anonymous, ${mappings} mappings`,
  );
} finally {
  await scorer.close();
}
