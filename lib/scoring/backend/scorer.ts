import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { projectRoot } from "../../paths";
import { MAIN_LANE, WorkerPool } from "./pool";
import type { HelloMessage, SandboxIsolationReport, ScoreReply } from "./protocol";
import { lostReason, SandboxWorker, WorkerLostError } from "./worker";

// Scores ColBench backend answers against a task's hidden tests. The benchmark's rules (banned
// strings, code fences, exec/eval per test, the 1 s limit, `==`) live in workers/python/, the one
// authoritative copy; this side only ships raw answers to a pool of sandbox workers.

export interface BackendTestResult {
  name: string;
  expression: string;
  passed: boolean;
  /** "ok", "mismatch", "exception: <Type>", "timeout", "banned: <substring>", "ground truth failed",
   *  "compare failed: <Type>", "crashed: <signal>" or "error: <what went wrong in the sandbox>". */
  reason: string;
  /** Capped repr of the ground truth's output, when it produced one. */
  expected?: string;
  /** Capped repr of the answer's output, when it produced one. */
  actual?: string;
  /** A failed test's exception message (its class is in `reason`), capped; made in the sandboxed child. */
  message?: string;
  /** What the answer printed during this failed test, capped. */
  output?: string;
}

export interface BackendScore {
  /** Passed tests / all tests (0 when a task has none). */
  reward: number;
  tests: BackendTestResult[];
  /** What the answer printed (capped), for display. */
  output?: string;
}

export interface BackendScoreInput {
  groundTruth: string;
  /** Test name -> call expression, as in the task's `test_cases`. */
  testCases: Record<string, string>;
  /** The agent's raw answer; fences and banned strings are handled in the sandbox. */
  answer: string;
}

export interface SandboxLimits {
  call_timeout?: number;
  ground_truth_timeout?: number;
  compare_timeout?: number;
  grace?: number;
  address_space?: number;
  file_size?: number;
  open_files?: number;
  processes?: number;
  cgroup_pids?: number;
  cgroup_memory?: number;
  output_chars?: number;
  repr_chars?: number;
}

export interface BackendScorerOptions {
  /** Worker processes; default os.availableParallelism(). */
  workers?: number;
  /** CPython >= 3.9; default $COLBENCH_PYTHON, else python3 on PATH. */
  python?: string;
  /** Overrides of the sandbox limits (workers/python/limits.py has the defaults). */
  limits?: SandboxLimits;
  /** Modules every worker imports up front, e.g. ["numpy"]: faster for answers that use them,
   *  slower forks for all others (see workers/python/README.md). */
  preload?: string[];
  /** The worker's entry point; default workers/python/worker.py of this checkout. */
  workerPath?: string;
  /** Keep each main-lane worker (with its zygote and sandbox children) on one core of its own,
   *  worker i on the i-th core this process may use; default true. Hand-offs between a worker,
   *  its zygote and a child then stay on one core (no cross-core wake-ups, warm caches): ~10%
   *  more answers per second on a 2-core VM. Children may widen their own affinity. */
  pinWorkers?: boolean;
  /** Answers (or ground truths) that mention numpy go to workers with numpy imported, started
   *  the first time one is needed; the others fork from lean workers. Default true. */
  numpyLane?: boolean;
  /** Requests whose code workers/python/reuse.py allows (no way to reach state that outlives its
   *  namespace) run one after another in a resident sandbox child while more wait, instead of a
   *  fresh fork each; everything else still gets a fresh child. Default true; false forks a child
   *  per request (workers/python/README.md, "Resident children"). */
  reuseChildren?: boolean;
}

/** What the sandbox could enforce on this machine, as the worker detected it at start. */
export interface BackendIsolation extends SandboxIsolationReport {
  python: string;
  limits: Record<string, number>;
  /** Modules every worker imported at start (the `preload` option). */
  preloaded: string[];
  /** Modules a worker's zygote may import ahead, once answers or ground truths keep naming one. */
  preloadOnDemand: string[];
  /** How the zygote forks sandbox children. */
  fork: string;
  /** Whether requests reuse.py allows run in a resident child (the reuseChildren option). */
  reuse: boolean;
}

const MIN_PYTHON: [number, number] = [3, 9];
/** Python command (with the environment that resolves it) -> the interpreter it ran. */
const resolvedPython = new Map<string, string>();
const NUMPY_LANE = "numpy";

function defaultWorkerPath(): string {
  const inCheckout = path.join(projectRoot, "workers", "python", "worker.py");
  if (existsSync(inCheckout)) return inCheckout;
  // Bundled server code can sit elsewhere; the studio always runs from the checkout.
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), "workers", "python", "worker.py");
}

function checkPython(hello: HelloMessage): void {
  const [major = 0, minor = 0] = hello.python.split(".").map(Number);
  if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
    throw new Error(`the backend sandbox needs CPython >= ${MIN_PYTHON.join(".")}, found ${hello.python}`);
  }
}

export class BackendScorer {
  private constructor(
    private readonly pool: WorkerPool,
    readonly isolation: BackendIsolation,
    private readonly limits: Record<string, number>,
    private readonly numpyLane: boolean,
  ) {}

  static async start(options: BackendScorerOptions = {}): Promise<BackendScorer> {
    const workers = Math.max(1, options.workers ?? os.availableParallelism());
    const workerPath = options.workerPath ?? defaultWorkerPath();
    const preload = options.preload ?? [];
    const command = options.python ?? process.env.COLBENCH_PYTHON ?? "python3";
    // What a command such as `python3` ran the last time in this process: launchers such as pyenv
    // shims cost ~80 ms a start, so restarts and later scorers go straight to the interpreter.
    const key = `${command}\0${process.env.PATH ?? ""}\0${process.env.PYENV_VERSION ?? ""}`;
    let python = resolvedPython.get(key) ?? command;
    const pin = options.pinWorkers ?? true;
    const spawner = (modules: string[], pinned: boolean) => async (slot: number) => {
      // A main-lane worker, its zygote and their children keep to one core each (slot i on the
      // i-th core the process may use): hand-offs between them then never cross cores.
      const config = {
        limits: options.limits ?? {},
        preload: modules,
        reuse: options.reuseChildren ?? true,
        ...(pinned ? { cpu: slot } : {}),
      };
      const worker = await SandboxWorker.start({ python, workerPath, config });
      try {
        checkPython(worker.hello);
      } catch (error) {
        await worker.close();
        throw error;
      }
      if (worker.hello.executable) {
        python = worker.hello.executable;
        resolvedPython.set(key, python);
      }
      return worker;
    };
    const numpyLane = (options.numpyLane ?? true) && !preload.includes("numpy");
    const lanes: Record<string, (slot: number) => Promise<SandboxWorker>> = numpyLane
      ? { [NUMPY_LANE]: spawner([...preload, "numpy"], false) }
      : {};
    const pool = await WorkerPool.start(workers, spawner(preload, pin), lanes);
    const first = pool.hello;
    const isolation: BackendIsolation = {
      ...first.isolation,
      python: first.python,
      limits: first.limits,
      preloaded: Object.keys(first.preloaded),
      preloadOnDemand: first.preload_on_demand ?? [],
      fork: first.zygote_fork ?? "",
      reuse: first.reuse ?? false,
    };
    return new BackendScorer(pool, isolation, first.limits, numpyLane);
  }

  /** Worker process ids (of every lane), for diagnostics and tests. */
  workerPids(): number[] {
    return this.pool.pids();
  }

  /** The workers' zygotes, which fork the sandbox children (every lane). */
  zygotePids(): number[] {
    return this.pool.zygotePids();
  }

  /** Requests each main-lane worker holds, and how many wait for one (diagnostics, tests). */
  load(): { workers: number[]; queued: number } {
    return this.pool.load();
  }

  /** Workers started to replace ones that died. */
  get restarts(): number {
    return this.pool.restarts;
  }

  /** Answers a worker handed back, unstarted, because the one it was on ran long. */
  get released(): number {
    return this.pool.released;
  }

  /** Slow answers whose remaining tests a worker shared out to another. */
  get splits(): number {
    return this.pool.splits;
  }

  /**
   * Tells the scorer what is coming: starts now, without waiting, a worker for every lane beyond
   * the main one that these inputs will use (the numpy lane when one mentions numpy). Otherwise
   * such a lane starts when its first answer arrives, and that answer waits ~0.1 s for it. Only
   * `answer` and `groundTruth` are looked at, and the results never depend on this.
   */
  warmFor(inputs: Iterable<Pick<BackendScoreInput, "answer" | "groundTruth">>): void {
    for (const input of inputs) {
      // A malformed input is score()'s to refuse, with its own error.
      if (typeof input.answer !== "string" || typeof input.groundTruth !== "string") continue;
      const lane = this.laneOf(input);
      if (lane !== MAIN_LANE) this.pool.warm(lane);
    }
  }

  async score(input: BackendScoreInput): Promise<BackendScore> {
    if (typeof input.groundTruth !== "string" || typeof input.answer !== "string") {
      throw new TypeError("groundTruth and answer must be strings");
    }
    const tests = Object.entries(input.testCases);
    for (const [name, expression] of tests) {
      if (typeof expression !== "string") throw new TypeError(`test ${name}: the expression must be a string`);
    }
    let reply: ScoreReply;
    try {
      reply = await this.pool.run(
        { type: "score", ground_truth: input.groundTruth, answer: input.answer, tests },
        this.requestTimeoutMs(tests.length),
        this.laneOf(input),
      );
    } catch (error) {
      if (!(error instanceof WorkerLostError)) throw error;
      // Two workers died on this answer: it fails, the caller goes on.
      return {
        reward: 0,
        tests: tests.map(([name, expression]) => ({ name, expression, passed: false, reason: lostReason(error) })),
      };
    }
    const results = tests.map(([name, expression], i): BackendTestResult => {
      const r = reply.tests[i];
      if (!r) return { name, expression, passed: false, reason: "error: no result from sandbox" };
      const result: BackendTestResult = { name, expression, passed: r.passed, reason: r.reason };
      if (r.expected !== undefined) result.expected = r.expected;
      if (r.actual !== undefined) result.actual = r.actual;
      if (typeof r.message === "string") result.message = r.message;
      if (typeof r.output === "string") result.output = r.output;
      return result;
    });
    const score: BackendScore = { reward: reply.reward, tests: results };
    if (reply.output) score.output = reply.output;
    return score;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  /** Only where the work runs depends on this guess; the result never does. */
  private laneOf(input: Pick<BackendScoreInput, "answer" | "groundTruth">): string {
    return this.numpyLane && (input.answer.includes("numpy") || input.groundTruth.includes("numpy"))
      ? NUMPY_LANE
      : MAIN_LANE;
  }

  private requestTimeoutMs(tests: number): number {
    // The worker enforces every limit itself; this only catches a worker that stopped answering.
    // Its hello reports the limits in force and the per-test budget it computes from them
    // (workers/python/limits.py), so the two sides cannot drift apart.
    const { setup_timeout: setup, per_test_budget: perTest } = this.limits;
    if (setup === undefined || perTest === undefined)
      throw new Error("the sandbox worker's hello lacks setup_timeout or per_test_budget");
    return Math.ceil((setup + tests * perTest) * 1000) + 10_000;
  }
}
