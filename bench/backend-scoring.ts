// Scores all 1000 official backend ground truths (each as the answer to its own task) twice:
// with the project's sandboxed scorer (a pool of forking workers) and with the benchmark authors'
// unsandboxed way (bench/backend_scoring_reference.py: one process, exec/eval in-process).
// Prints both wall times with and without start-up, their ratio and the tasks each fails, and how
// busy the machine's cores were while each side scored (idle cores are time the pool could use).
//
// The two take turns in slices of --slice tasks (which goes first alternates), both started once
// per round: this VM's speed drifts by tens of percent from second to second, and scoring all
// 1000 with one and then with the other compared whichever got the faster seconds.
//
// --no-reuse forks a child per request (BackendScorer's reuseChildren: false), the peer to compare
// resident children with.
//
//   npx tsx bench/backend-scoring.ts [--workers N] [--rounds R] [--slice S] [--python PY] [--show-slices] [--no-reuse]

import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { projectRoot, sharedColbenchDir } from "../lib/paths";
import { BackendScorer, type BackendIsolation } from "../lib/scoring/backend/scorer";
import { machineTicks, processStat } from "./proc-cpu";

interface Task {
  ground_truth: string;
  test_cases: Record<string, string>;
}

interface Timing {
  withStartMs: number;
  scoringMs: number;
  rewards: number[];
  /** Sandboxed only: why each test of a task failed. */
  reasons?: string[][];
  /** The machine's ticks (all cores) while this side scored: busy, idle, stolen by the hypervisor. */
  machine: { busy: number; idle: number; steal: number };
  /** CPU seconds, start-up included: the reference process; or Node, the workers (with their zygotes), the sandbox children. */
  cpu: number[];
}

const { values } = parseArgs({
  options: {
    workers: { type: "string", default: String(os.availableParallelism()) },
    rounds: { type: "string", default: "3" },
    slice: { type: "string", default: "100" },
    python: { type: "string", default: process.env.COLBENCH_PYTHON ?? "python3" },
    "show-slices": { type: "boolean", default: false },
    "no-reuse": { type: "boolean", default: false },
  },
});
const workers = Number(values.workers);
const rounds = Number(values.rounds);
const sliceSize = Math.max(1, Number(values.slice));
const python = values.python;

const file = path.join(sharedColbenchDir(), "backend_test.jsonl");
if (!existsSync(file)) {
  console.error(`bench/backend-scoring: ${file} is absent; this benchmark needs the official ColBench test set there.`);
  process.exit(2);
}
const tasks = readTasks();

function readTasks(): Task[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Task);
}

/** One side of the comparison: started once per round, then asked for slices of the tasks. */
interface Contender {
  startMs: number;
  scoreSlice(from: number, to: number): Promise<number[]>;
  /** Ends it; CPU seconds as in Timing.cpu, and (sandboxed) the reasons tests failed. */
  close(): Promise<{ cpu: number[]; reasons?: string[][] }>;
}

/** The unsandboxed peer, serving slices (backend_scoring_reference.py --serve). */
async function reference(): Promise<Contender> {
  const script = path.join(projectRoot, "bench", "backend_scoring_reference.py");
  const started = performance.now();
  const child = spawn(python, [script, file, "--serve"], { stdio: ["pipe", "pipe", "pipe"] });
  child.stderr.resume(); // one ground truth makes numpy warn; not ours to show
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`the reference exited (status ${child.exitCode})`);
    return JSON.parse(line.value) as { ready?: number; rewards?: number[]; summary?: { cpu_s: number } };
  };
  await next(); // {"ready": N}: tasks read, like the pool's start-up below
  return {
    startMs: performance.now() - started,
    async scoreSlice(from, to) {
      child.stdin.write(`${from} ${to}\n`);
      return (await next()).rewards!;
    },
    async close() {
      child.stdin.end();
      const { summary } = await next();
      return { cpu: [summary!.cpu_s] };
    },
  };
}

async function sandboxed(): Promise<Contender> {
  const started = performance.now();
  const nodeCpu = process.cpuUsage();
  const scorer = await BackendScorer.start({ workers, python, reuseChildren: !values["no-reuse"] });
  seen.isolation ??= scorer.isolation;
  const reasons: string[][] = [];
  let warmed = false;
  return {
    startMs: performance.now() - started,
    async scoreSlice(from, to) {
      if (!warmed) {
        // As `colbench score backend` does (it reads every line first): the numpy lane starts
        // alongside the first answers rather than when task 118 arrives. Here, inside the
        // sandbox's first timed slice, so that its start-up is counted against the sandbox
        // (started any earlier, it would use the core the reference leaves idle, for free).
        warmed = true;
        scorer.warmFor(tasks.map((task) => ({ groundTruth: task.ground_truth, answer: task.ground_truth })));
      }
      const scores = await Promise.all(
        tasks
          .slice(from, to)
          .map((task) =>
            scorer.score({ groundTruth: task.ground_truth, testCases: task.test_cases, answer: task.ground_truth }),
          ),
      );
      scores.forEach(
        (score, i) => (reasons[from + i] = score.tests.filter((t) => !t.passed).map((t) => `${t.name}: ${t.reason}`)),
      );
      return scores.map((score) => score.reward);
    },
    async close() {
      const node = process.cpuUsage(nodeCpu);
      // Workers and their zygotes (which fork the sandbox children and reap them) are still running.
      const perWorker = [...scorer.workerPids(), ...scorer.zygotePids()].map(processStat);
      await scorer.close();
      return {
        cpu: [
          (node.user + node.system) / 1e6,
          perWorker.reduce((a, w) => a + w.cpu, 0),
          perWorker.reduce((a, w) => a + w.childCpu, 0),
        ],
        reasons,
      };
    },
  };
}

const seen: { isolation?: BackendIsolation } = {};

/** One round: both started, then slice by slice, taking turns at going first. */
async function round(): Promise<{ ref: Timing; box: Timing; sliceRatios: number[] }> {
  const ref = await reference();
  const box = await sandboxed();
  const refRewards: number[] = [];
  const boxRewards: number[] = [];
  let refMs = 0;
  let boxMs = 0;
  const sliceRatios: number[] = [];
  const refMachine = { busy: 0, idle: 0, steal: 0 };
  const boxMachine = { busy: 0, idle: 0, steal: 0 };
  for (let from = 0, k = 0; from < tasks.length; from += sliceSize, k++) {
    const to = Math.min(tasks.length, from + sliceSize);
    // Wall ms, and the share of the machine's ticks that were idle meanwhile.
    const timed = async (who: Contender, into: number[], machine: Timing["machine"]) => {
      const m0 = machineTicks();
      const t0 = performance.now();
      into.push(...(await who.scoreSlice(from, to)));
      const ms = performance.now() - t0;
      const m1 = machineTicks();
      machine.busy += m1.busy - m0.busy;
      machine.idle += m1.idle - m0.idle;
      machine.steal += m1.steal - m0.steal;
      return { ms, idle: (m1.idle - m0.idle) / Math.max(1, m1.busy - m0.busy + m1.idle - m0.idle) };
    };
    let r: number;
    let b: { ms: number; idle: number };
    if (k % 2 === 0) {
      r = (await timed(ref, refRewards, refMachine)).ms;
      b = await timed(box, boxRewards, boxMachine);
    } else {
      b = await timed(box, boxRewards, boxMachine);
      r = (await timed(ref, refRewards, refMachine)).ms;
    }
    refMs += r;
    boxMs += b.ms;
    sliceRatios.push(b.ms / r);
    if (values["show-slices"])
      console.log(
        `  slice ${from}-${to}: reference ${r.toFixed(0)} ms, sandboxed ${b.ms.toFixed(0)} ms (cores ${(100 * b.idle).toFixed(0)}% idle)`,
      );
  }
  const refEnd = await ref.close();
  const boxEnd = await box.close();
  return {
    ref: {
      withStartMs: ref.startMs + refMs,
      scoringMs: refMs,
      rewards: refRewards,
      cpu: refEnd.cpu,
      machine: refMachine,
    },
    box: {
      withStartMs: box.startMs + boxMs,
      scoringMs: boxMs,
      rewards: boxRewards,
      cpu: boxEnd.cpu,
      reasons: boxEnd.reasons,
      machine: boxMachine,
    },
    sliceRatios,
  };
}

function failing(rewards: number[]): number[] {
  return rewards.flatMap((reward, index) => (reward === 1 ? [] : [index]));
}

const s = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

console.log(
  `${tasks.length} tasks, ${workers} sandbox workers, ${os.availableParallelism()} cores, ${rounds} round(s), taking turns every ${sliceSize} tasks`,
);
const ref: Timing[] = [];
const box: Timing[] = [];
for (let index = 0; index < rounds; index++) {
  const result = await round();
  ref.push(result.ref);
  box.push(result.box);
  const r = result.ref;
  const b = result.box;
  const sorted = [...result.sliceRatios].sort((x, y) => x - y);
  console.log(
    `round ${index + 1}: reference ${s(r.withStartMs)} (${s(r.scoringMs)} scoring) | sandboxed ${s(b.withStartMs)} (${s(b.scoringMs)} scoring)` +
      ` | ratio ${(b.withStartMs / r.withStartMs).toFixed(2)} with start-up, ${(b.scoringMs / r.scoringMs).toFixed(2)} without` +
      ` | per slice ${sorted[0]!.toFixed(2)}-${sorted[sorted.length - 1]!.toFixed(2)}`,
  );
  const cores = (m: Timing["machine"]) => {
    const all = m.busy + m.idle + m.steal || 1;
    return `${((100 * m.busy) / all).toFixed(0)}% busy, ${((100 * m.idle) / all).toFixed(0)}% idle, ${((100 * m.steal) / all).toFixed(0)}% stolen`;
  };
  console.log(`  the machine's cores while scoring: reference ${cores(r.machine)} | sandboxed ${cores(b.machine)}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const refWith = median(ref.map((t) => t.withStartMs));
const refScoring = median(ref.map((t) => t.scoringMs));
const boxWith = median(box.map((t) => t.withStartMs));
const boxScoring = median(box.map((t) => t.scoringMs));
const refFailing = failing(ref[0]!.rewards);
const boxFailing = failing(box[0]!.rewards);
const differ = tasks.flatMap((_, i) => (ref[0]!.rewards[i] !== box[0]!.rewards[i] ? [i] : []));

console.log("");
console.log(
  `reference (one process, unsandboxed): ${s(refWith)} with interpreter start-up, ${s(refScoring)} scoring only`,
);
console.log(
  `sandboxed (pool of ${workers}):              ${s(boxWith)} with pool start-up, ${s(boxScoring)} scoring only`,
);
console.log(
  `ratio sandboxed / reference: ${(boxWith / refWith).toFixed(2)} with start-up, ${(boxScoring / refScoring).toFixed(2)} without`,
);
const refCpu = median(ref.map((t) => t.cpu[0]!));
const boxCpu = [0, 1, 2].map((i) => median(box.map((t) => t.cpu[i]!)));
console.log(
  `CPU (start-up included): reference ${refCpu.toFixed(2)} s; sandboxed ${(boxCpu[0]! + boxCpu[1]! + boxCpu[2]!).toFixed(2)} s` +
    ` (node ${boxCpu[0]!.toFixed(2)}, workers and zygotes ${boxCpu[1]!.toFixed(2)}, sandbox children ${boxCpu[2]!.toFixed(2)})`,
);
console.log(
  `passing all tests: reference ${tasks.length - refFailing.length}, sandboxed ${tasks.length - boxFailing.length}`,
);
console.log(`not passing, reference: ${JSON.stringify(refFailing.map((i) => [i, ref[0]!.rewards[i]]))}`);
console.log(`not passing, sandboxed: ${JSON.stringify(boxFailing.map((i) => [i, box[0]!.rewards[i]]))}`);
console.log(`rewards differ on: ${differ.length ? JSON.stringify(differ) : "none"}`);
for (const i of differ) console.log(`  task ${i}: sandboxed ${JSON.stringify(box[0]!.reasons![i])}`);
const flaky = box.flatMap((b, round) =>
  tasks.flatMap((_, i) =>
    b.rewards[i] !== box[0]!.rewards[i] ? [`round ${round + 1} task ${i}: ${JSON.stringify(b.reasons![i])}`] : [],
  ),
);
if (flaky.length) console.log(`sandboxed rewards that changed between rounds:\n  ${flaky.join("\n  ")}`);
if (seen.isolation) {
  const iso = seen.isolation;
  console.log(`sandbox: ${iso.network}; ${iso.pid}; ${iso.user}; cgroup ${iso.cgroup}`);
  console.log(
    `children: ${iso.fork}${iso.reuse ? "; requests workers/python/reuse.py allows run in a resident child while more wait" : ""}`,
  );
}
