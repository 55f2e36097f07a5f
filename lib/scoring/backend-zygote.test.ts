import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../paths";
import { BackendScorer } from "./backend";
import { sandboxForkLibrary } from "./backend-native";

// How the zygote forks and sets up sandbox children (C or Python), and which modules it imports
// ahead for them. Scores must not depend on either; what a child can see and do must not either.

const workerPath = path.join(projectRoot, "workers", "python", "worker.py");

function hasCompiler(): boolean {
  try {
    execFileSync(process.env.CC || "cc", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

let native: BackendScorer;
let python: BackendScorer;
beforeAll(async () => {
  [native, python] = await Promise.all([
    BackendScorer.start({ workers: 1, numpyLane: false }),
    BackendScorer.start({ workers: 1, numpyLane: false, native: false }),
  ]);
});
afterAll(async () => {
  await Promise.all([native?.close(), python?.close()]);
});

describe("the zygote's C fork and set-up", () => {
  it("is built with the system C compiler and used by the workers", async (ctx) => {
    // Without a C compiler the workers set children up in Python, which the next test covers.
    if (!hasCompiler()) ctx.skip();
    const library = await sandboxForkLibrary(workerPath);
    expect(library.note).toBe("");
    expect(existsSync(library.path!)).toBe(true);
    expect(native.isolation.fork).toMatch(/child set-up in C/);
    expect(python.isolation.fork).toMatch(/child set-up in Python \(turned off/);
  });

  it("gives children the same sandbox as the set-up in Python", async () => {
    // What answer code sees of its own process, from the answer's call (cwd answer/).
    const probe = [
      "def f():",
      "    o = __import__('o' + 's')",
      "    r = __import__('resource')",
      "    status = dict(l.split(':', 1) for l in open('/proc/self/status').read().splitlines())",
      "    groups = [l.split(':', 2)[2] for l in open('/proc/self/cgroup').read().splitlines()]",
      "    return (o.getuid(), o.getgid(), o.getgroups(), o.path.basename(o.getcwd()), sorted(o.listdir('..')),",
      "            sorted(o.listdir('/proc/self/fd')), r.getrlimit(r.RLIMIT_CPU)[0], status['NoNewPrivs'].strip(),",
      "            status['CapEff'].strip(), sum('colbench-sandbox-' in g for g in groups))",
      "",
    ].join("\n");
    const view = async (scorer: BackendScorer) => {
      const result = await scorer.score({ groundTruth: "def f():\n    return 0\n", testCases: { a: "f()" }, answer: probe });
      expect(result.tests[0]!.reason).toBe("mismatch");
      return result.tests[0]!.actual!;
    };
    const [inC, inPython] = await Promise.all([view(native), view(python)]);
    const uid = (scorer: BackendScorer) => /^uid (\d+) \(unprivileged/.exec(scorer.isolation.user)?.[1];
    // Each worker has a uid of its own; everything else is the same.
    expect(inC.replaceAll(uid(native) ?? "\0", "UID")).toBe(inPython.replaceAll(uid(python) ?? "\0", "UID"));
    const [own, group, groups, cwd, siblings, fds, cpu, noNewPrivs, caps, cgroups] = JSON.parse(
      inC.replace(/\(/g, "[").replace(/\)/g, "]").replace(/'/g, '"'),
    ) as [number, number, number[], string, string[], string[], number, string, string, number];
    expect(cwd).toBe("answer");
    expect(siblings).toEqual(["answer", "ground_truth"]);
    expect(fds).toEqual(["0", "1", "2", "3"]); // 3: the listing's own
    expect(cpu).toBeGreaterThan(0);
    if (uid(native)) {
      expect([own, group, groups]).toEqual([Number(uid(native)), Number(uid(native)), []]);
      expect([noNewPrivs, caps]).toEqual(["1", "0000000000000000"]);
    }
    if (native.isolation.cgroup.startsWith("v1")) expect(cgroups).toBe(2); // pids and memory
  });
});

describe("modules the zygote imports ahead", () => {
  // The answer names `typing` (so the worker counts the request) but does not import it: whether it
  // is loaded when its call runs tells whether the zygote imported it before forking.
  const preloaded = (name: string) =>
    `def f():\n    return '${name}' in __import__('s' + 'ys').modules\ndef unused():\n    return ${name}.Any\n`;
  const asks = async (scorer: BackendScorer, name: string) =>
    (await scorer.score({ groundTruth: "def f():\n    return True\n", testCases: { a: "f()" }, answer: preloaded(name) })).reward === 1;
  const plain = { groundTruth: "def f(x):\n    return x\n", testCases: { a: "f(1)" }, answer: "def f(x):\n    return x\n" };

  it("are imported only once answers keep naming them", async () => {
    // The first answer to name a module imports it itself; the second finds it loaded.
    expect(await asks(python, "typing")).toBe(false);
    expect(await asks(python, "typing")).toBe(true);
    // Named once per hundred answers: not worth every later fork's cost.
    expect(await asks(python, "heapq")).toBe(false);
    for (let i = 0; i < 100; i++) await python.score(plain);
    expect(await asks(python, "heapq")).toBe(false);
    expect(await asks(python, "heapq")).toBe(true);
    // Never one outside the list, however often it is named.
    for (let i = 0; i < 3; i++) expect(await asks(python, "statistics")).toBe(false);
  });
});
