import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { BackendScorer } from "./scorer";

// The pool outlives its workers: a worker killed mid-answer is replaced and the answer is tried
// once more; a second loss fails that answer (it never hangs), and the pool goes on.

const truth = "def f(x):\n    return x * 2\n";
// Slow enough for the test to kill the worker while the answer runs.
const slow = (seconds: number) => `import time\ndef f(x):\n    time.sleep(${seconds})\n    return x * 2\n`;

let scorer: BackendScorer | null = null;
afterEach(async () => {
  await scorer?.close();
  scorer = null;
});

function killWorkersAfter(ms: number): Promise<void> {
  return new Promise((resolve) =>
    setTimeout(() => {
      for (const pid of scorer!.workerPids()) process.kill(pid, "SIGKILL");
      resolve();
    }, ms),
  );
}

describe("backend worker pool", () => {
  it("restarts a killed worker and retries the answer it was scoring", async () => {
    scorer = await BackendScorer.start({ workers: 1 });
    const before = scorer.workerPids();
    const pending = scorer.score({ groundTruth: truth, testCases: { a: "f(1)" }, answer: slow(0.6) });
    await killWorkersAfter(200);
    const result = await pending;
    expect(result.reward).toBe(1);
    expect(scorer.restarts).toBe(1);
    expect(scorer.workerPids()).not.toEqual(before);
  });

  it("fails an answer whose worker is lost twice, then keeps scoring", async () => {
    scorer = await BackendScorer.start({ workers: 1 });
    const pending = scorer.score({ groundTruth: truth, testCases: { a: "f(1)" }, answer: slow(5) });
    await killWorkersAfter(200);
    // The retry runs on the replacement; kill that one too once it is up and busy.
    while (scorer.restarts < 1) await new Promise((resolve) => setTimeout(resolve, 20));
    await killWorkersAfter(300);
    const result = await pending;
    expect(result.reward).toBe(0);
    expect(result.tests[0]!.reason).toMatch(/^error: sandbox worker lost/);
    const next = await scorer.score({ groundTruth: truth, testCases: { a: "f(1)" }, answer: truth });
    expect(next.reward).toBe(1);
  });

  it("answers waiting behind a lost one are scored by the others", async () => {
    scorer = await BackendScorer.start({ workers: 2 });
    const answers = [slow(0.5), truth, truth, slow(0.5), truth, truth];
    const pending = answers.map((answer) => scorer!.score({ groundTruth: truth, testCases: { a: "f(1)" }, answer }));
    await killWorkersAfter(150);
    const results = await Promise.all(pending);
    expect(results.map((r) => r.reward)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  // Without numpy the lane has nothing to speed up; its routing is then all there is to see.
  const numpy =
    spawnSync(process.env.COLBENCH_PYTHON ?? "python3", ["-c", "import numpy"], { stdio: "ignore" }).status === 0;
  it.skipIf(!numpy)("answers that mention numpy go to a numpy worker started on first need", async () => {
    scorer = await BackendScorer.start({ workers: 1 });
    expect(scorer.workerPids()).toHaveLength(1);
    const truth = "def f(xs):\n    return sum(xs) / len(xs)\n";
    const tests = { a: "f([1, 2, 3])", b: "f([2.5])" };
    const named = await scorer.score({
      groundTruth: truth,
      testCases: tests,
      answer: "import numpy as np\ndef f(xs):\n    return float(np.mean(xs))\n",
    });
    expect(named.reward).toBe(1);
    expect(scorer.workerPids()).toHaveLength(2);
    // A name the router cannot see still works (numpy is imported in the child instead).
    const hidden = await scorer.score({
      groundTruth: truth,
      testCases: tests,
      answer: "def f(xs):\n    return float(__import__('nu' + 'mpy').mean(xs))\n",
    });
    expect(hidden.reward).toBe(1);
  });

  it.skipIf(!numpy)("warmFor starts the numpy worker before its first answer arrives, once", async () => {
    scorer = await BackendScorer.start({ workers: 1 });
    const truth = "def f(xs):\n    return sum(xs) / len(xs)\n";
    const numpyAnswer = "import numpy as np\ndef f(xs):\n    return float(np.mean(xs))\n";
    scorer.warmFor([{ groundTruth: truth, answer: truth }]);
    scorer.warmFor([
      { groundTruth: truth, answer: numpyAnswer },
      { groundTruth: truth, answer: numpyAnswer },
    ]);
    const deadline = Date.now() + 20_000;
    while (scorer.workerPids().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const pids = scorer.workerPids();
    expect(pids).toHaveLength(2);
    const named = await scorer.score({ groundTruth: truth, testCases: { a: "f([1, 2, 3])" }, answer: numpyAnswer });
    expect(named.reward).toBe(1);
    expect(scorer.workerPids()).toEqual(pids);
  });

  // A function that keeps its child busy for `ms` per call (the same in the ground truth and the answer).
  const spin = (ms: number) =>
    `import time\ndef f(x):\n    end = time.monotonic() + ${ms / 1000}\n    while time.monotonic() < end:\n        pass\n    return x * 2\n`;
  const tenTests = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`t${i}`, `f(${i})`]));

  it("answers queued behind a slow one are handed back and scored by an idle worker", async () => {
    scorer = await BackendScorer.start({ workers: 2 });
    const order: string[] = [];
    // One test (nothing to split): 0.6 s in one child.
    const slow = scorer
      .score({ groundTruth: spin(300), testCases: { a: "f(1)" }, answer: spin(300) })
      .then((r) => (order.push("slow"), r));
    const fast = Array.from({ length: 30 }, (_, i) =>
      scorer!
        .score({ groundTruth: truth, testCases: { a: `f(${i})` }, answer: truth })
        .then((r) => (order.push("fast"), r)),
    );
    const results = await Promise.all([slow, ...fast]);
    expect(results.map((r) => r.reward)).toEqual(Array(31).fill(1));
    // Without the hand-back, the fast answers the pool had sent to the slow one's worker would
    // have waited for it; now none is scored after it.
    expect(order.at(-1)).toBe("slow");
    expect(scorer.released).toBeGreaterThan(0);
  });

  it("shares a slow answer's remaining tests with an idle worker, with the same results", async () => {
    scorer = await BackendScorer.start({ workers: 2 });
    // The ground truth doubles; the answer is wrong on odd inputs: half the tests fail, and
    // which half must survive the split.
    const answer = spin(40).replace("return x * 2", "return x * 2 if x % 2 == 0 else -1");
    const shared = await scorer.score({ groundTruth: spin(40), testCases: tenTests, answer });
    expect(scorer.splits).toBe(1);
    expect(shared.tests.map((t) => t.name)).toEqual(Object.keys(tenTests));
    expect(shared.tests.map((t) => t.passed)).toEqual([
      true,
      false,
      true,
      false,
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
    expect(shared.tests.map((t) => t.reason)).toEqual(
      Array(10)
        .fill(0)
        .map((_, i) => (i % 2 ? "mismatch" : "ok")),
    );
    expect(shared.tests[3]!.actual).toBe("-1");
    expect(shared.reward).toBe(0.5);
    // A lane of one worker has no one to share with: the same answer is scored whole.
    await scorer.close();
    scorer = await BackendScorer.start({ workers: 1 });
    const whole = await scorer.score({ groundTruth: spin(40), testCases: tenTests, answer });
    expect(scorer.splits).toBe(0);
    expect(scorer.released).toBe(0);
    expect(whole).toEqual(shared);
  });

  it("keeps the last answers of a batch in its own queue, for whichever worker is free first", async () => {
    scorer = await BackendScorer.start({ workers: 2 });
    const pending = Array.from({ length: 40 }, (_, i) =>
      scorer!.score({ groundTruth: truth, testCases: { a: `f(${i})` }, answer: truth }),
    );
    // A long queue fills both pipelines, but not with all of it: 22 go out, 18 wait here (with the
    // whole pipeline used, 32 and 8, one worker could be left idle while the other works through 16).
    const { workers, queued } = scorer.load();
    expect(workers).toEqual([11, 11]);
    expect(queued).toBe(18);
    const results = await Promise.all(pending);
    expect(results.every((r) => r.reward === 1)).toBe(true);
    expect(scorer.load()).toEqual({ workers: [0, 0], queued: 0 });
  });

  it("reports what isolation the workers set up", async () => {
    scorer = await BackendScorer.start({ workers: 1 });
    const iso = scorer.isolation;
    expect(iso.python).toMatch(/^3\.\d+/);
    for (const field of [iso.network, iso.filesystem, iso.pid, iso.user, iso.cgroup]) expect(field).toBeTruthy();
    expect(iso.limits.call_timeout).toBe(1);
  });
});
