// Scores all 1000 official backend ground truths (each as the answer to its own task) twice:
// with the project's sandboxed scorer (a pool of forking workers) and with the benchmark authors'
// unsandboxed way (bench/backend_scoring_reference.py: one process, exec/eval in-process).
// Prints both wall times with and without start-up, their ratio and the tasks each fails.
//
//   npx tsx bench/backend-scoring.ts [--workers N] [--rounds R] [--python PY]

import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { projectRoot, sharedColbenchDir } from "../lib/paths";
import { BackendScorer, type BackendIsolation } from "../lib/scoring/backend";

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
  /** CPU seconds, start-up included: the reference process; or Node, the workers (with their zygotes), the sandbox children. */
  cpu: number[];
}

const { values } = parseArgs({
  options: {
    workers: { type: "string", default: String(os.availableParallelism()) },
    rounds: { type: "string", default: "1" },
    python: { type: "string", default: process.env.COLBENCH_PYTHON ?? "python3" },
  },
});
const workers = Number(values.workers);
const rounds = Number(values.rounds);
const python = values.python!;

const file = path.join(sharedColbenchDir(), "backend_test.jsonl");
if (!existsSync(file)) {
  console.error(`bench/backend-scoring: ${file} is absent; this benchmark needs the official ColBench test set there.`);
  process.exit(2);
}
const tasks = readTasks();

function reference(): Promise<Timing> {
  const script = path.join(projectRoot, "bench", "backend_scoring_reference.py");
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(python, [script, file], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stderr.resume(); // one ground truth makes numpy warn; not ours to show
    child.on("error", reject);
    child.on("exit", (code) => {
      const withStartMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`the reference exited with status ${code}`));
      const rewards: number[] = [];
      let scoringMs = NaN;
      let cpu: number[] = [];
      for (const line of out.split("\n")) {
        if (!line) continue;
        const record = JSON.parse(line) as { index?: number; reward?: number; summary?: { scoring_s: number; cpu_s: number } };
        if (record.summary) {
          scoringMs = record.summary.scoring_s * 1000;
          cpu = [record.summary.cpu_s];
        } else rewards[record.index!] = record.reward!;
      }
      resolve({ withStartMs, scoringMs, rewards, cpu });
    });
  });
}

function readTasks(): Task[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Task);
}

/** utime+stime and the same for reaped children, in seconds (Linux /proc). */
function processCpu(pid: number): [number, number] {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const tick = 100; // USER_HZ
  const at = (i: number) => Number(fields[i]) / tick;
  return [at(11) + at(12), at(13) + at(14)];
}

async function sandboxed(): Promise<Timing> {
  const started = performance.now();
  const nodeCpu = process.cpuUsage();
  // Read inside the timed window, as the reference does.
  const [scorer, own] = await Promise.all([BackendScorer.start({ workers, python }), Promise.resolve(readTasks())]);
  const ready = performance.now();
  const scores = await Promise.all(
    own.map((task) => scorer.score({ groundTruth: task.ground_truth, testCases: task.test_cases, answer: task.ground_truth })),
  );
  const done = performance.now();
  const node = process.cpuUsage(nodeCpu);
  // Workers and their zygotes (which fork the sandbox children and reap them) are still running.
  const perWorker = [...scorer.workerPids(), ...scorer.zygotePids()].map(processCpu);
  const cpu = [(node.user + node.system) / 1e6, perWorker.reduce((a, w) => a + w[0], 0), perWorker.reduce((a, w) => a + w[1], 0)];
  await scorer.close();
  seen.isolation ??= scorer.isolation;
  return {
    cpu,
    withStartMs: done - started,
    scoringMs: done - ready,
    rewards: scores.map((s) => s.reward),
    reasons: scores.map((s) => s.tests.filter((t) => !t.passed).map((t) => `${t.name}: ${t.reason}`)),
  };
}

const seen: { isolation?: BackendIsolation } = {};

function failing(rewards: number[]): number[] {
  return rewards.flatMap((reward, index) => (reward === 1 ? [] : [index]));
}

const s = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

console.log(`${tasks.length} tasks, ${workers} sandbox workers, ${os.availableParallelism()} cores, ${rounds} round(s)`);
const ref: Timing[] = [];
const box: Timing[] = [];
for (let round = 0; round < rounds; round++) {
  // Alternate which goes first, so neither always meets a cold page cache or a busy neighbour.
  if (round % 2 === 0) {
    ref.push(await reference());
    box.push(await sandboxed());
  } else {
    box.push(await sandboxed());
    ref.push(await reference());
  }
  const r = ref[ref.length - 1]!;
  const b = box[box.length - 1]!;
  console.log(
    `round ${round + 1}: reference ${s(r.withStartMs)} (${s(r.scoringMs)} scoring) | sandboxed ${s(b.withStartMs)} (${s(b.scoringMs)} scoring)` +
      ` | ratio ${(b.withStartMs / r.withStartMs).toFixed(2)} with start-up, ${(b.scoringMs / r.scoringMs).toFixed(2)} without`,
  );
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
console.log(`reference (one process, unsandboxed): ${s(refWith)} with interpreter start-up, ${s(refScoring)} scoring only`);
console.log(`sandboxed (pool of ${workers}):              ${s(boxWith)} with pool start-up, ${s(boxScoring)} scoring only`);
console.log(`ratio sandboxed / reference: ${(boxWith / refWith).toFixed(2)} with start-up, ${(boxScoring / refScoring).toFixed(2)} without`);
const refCpu = median(ref.map((t) => t.cpu[0]!));
const boxCpu = [0, 1, 2].map((i) => median(box.map((t) => t.cpu[i]!)));
console.log(
  `CPU (start-up included): reference ${refCpu.toFixed(2)} s; sandboxed ${(boxCpu[0]! + boxCpu[1]! + boxCpu[2]!).toFixed(2)} s` +
    ` (node ${boxCpu[0]!.toFixed(2)}, workers and zygotes ${boxCpu[1]!.toFixed(2)}, sandbox children ${boxCpu[2]!.toFixed(2)})`,
);
console.log(`passing all tests: reference ${tasks.length - refFailing.length}, sandboxed ${tasks.length - boxFailing.length}`);
console.log(`not passing, reference: ${JSON.stringify(refFailing.map((i) => [i, ref[0]!.rewards[i]]))}`);
console.log(`not passing, sandboxed: ${JSON.stringify(boxFailing.map((i) => [i, box[0]!.rewards[i]]))}`);
console.log(`rewards differ on: ${differ.length ? JSON.stringify(differ) : "none"}`);
for (const i of differ) console.log(`  task ${i}: sandboxed ${JSON.stringify(box[0]!.reasons![i])}`);
const flaky = box.flatMap((b, round) => tasks.flatMap((_, i) => (b.rewards[i] !== box[0]!.rewards[i] ? [`round ${round + 1} task ${i}: ${JSON.stringify(b.reasons![i])}`] : [])));
if (flaky.length) console.log(`sandboxed rewards that changed between rounds:\n  ${flaky.join("\n  ")}`);
if (seen.isolation) {
  const iso = seen.isolation;
  console.log(`sandbox: ${iso.network}; ${iso.pid}; ${iso.user}; cgroup ${iso.cgroup}`);
}
