import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackendScorer } from "./scorer";

// The zygote that forks sandbox children: a fresh interpreter holding only the sandbox's own
// modules, and what children can see of it. Scores must not depend on which modules it imported
// ahead; what a child can see and do must not either.

let scorer: BackendScorer;
beforeAll(async () => {
  scorer = await BackendScorer.start({ workers: 1, numpyLane: false });
});
afterAll(async () => {
  await scorer?.close();
});

/** What answer code sees from its call, as the repr the sandbox reports. */
async function look(expression: string, setup = ""): Promise<string> {
  const answer = `def f():\n${setup}    return ${expression}\n`;
  const result = await scorer.score({ groundTruth: "def f():\n    return 0\n", testCases: { a: "f()" }, answer });
  expect(result.tests[0]!.reason).toBe("mismatch");
  return result.tests[0]!.actual!;
}

describe("the zygote", () => {
  it("holds none of the worker's modules, nor ctypes, json or site", async () => {
    const seen = await look(
      "sorted(m for m in __import__('s' + 'ys').modules if m in WANTED)",
      "    WANTED = {'worker', 'scoring', 'protocol', 'isolation', 'answers', 'ctypes', 'json', 're', 'site', 'enum'}\n",
    );
    expect(seen).toBe("[]");
    // Nor their shared libraries: every mapping costs each fork.
    const maps = readFileSync(`/proc/${scorer.zygotePids()[0]}/maps`, "utf8");
    expect(maps).not.toMatch(/_ctypes|libffi|_json/);
    expect(scorer.isolation.fork).toMatch(/fresh interpreter/);
  });

  it("gives each child its own uid, cwd, limits, fds and cgroups", async () => {
    const probe = [
      "    o = __import__('o' + 's')",
      "    r = __import__('resource')",
      "    status = dict(l.split(':', 1) for l in open('/proc/self/status').read().splitlines())",
      "    groups = [l.split(':', 2)[2] for l in open('/proc/self/cgroup').read().splitlines()]",
      "",
    ].join("\n");
    const view = await look(
      "(o.getuid(), o.getgid(), o.getgroups(), o.path.basename(o.getcwd()), sorted(o.listdir('..')), " +
        "sorted(o.listdir('/proc/self/fd')), r.getrlimit(r.RLIMIT_CPU)[0], status['NoNewPrivs'].strip(), " +
        "status['CapEff'].strip(), sum('colbench-sandbox-' in g for g in groups))",
      probe,
    );
    const [own, group, groups, cwd, siblings, fds, cpu, noNewPrivs, caps, cgroups] = JSON.parse(
      view.replace(/\(/g, "[").replace(/\)/g, "]").replace(/'/g, '"'),
    ) as [number, number, number[], string, string[], string[], number, string, string, number];
    expect(cwd).toBe("answer");
    expect(siblings).toEqual(["answer", "ground_truth"]);
    expect(fds).toEqual(["0", "1", "2", "3"]); // 3: the listing's own
    expect(cpu).toBeGreaterThan(0);
    const uid = /^uid (\d+) \(unprivileged/.exec(scorer.isolation.user)?.[1];
    if (uid) {
      expect([own, group, groups]).toEqual([Number(uid), Number(uid), []]);
      expect([noNewPrivs, caps]).toEqual(["1", "0000000000000000"]);
    }
    if (scorer.isolation.cgroup.startsWith("v1")) expect(cgroups).toBe(2); // pids and memory
  });
});

describe("modules the zygote imports ahead", () => {
  // The answer names `typing` (so the worker counts the request) but does not import it: whether it
  // is loaded when its call runs tells whether the zygote imported it before forking.
  const preloaded = (name: string) =>
    `def f():\n    return '${name}' in __import__('s' + 'ys').modules\ndef unused():\n    return ${name}.Any\n`;
  const asks = async (scorer: BackendScorer, name: string) =>
    (
      await scorer.score({
        groundTruth: "def f():\n    return True\n",
        testCases: { a: "f()" },
        answer: preloaded(name),
      })
    ).reward === 1;
  const plain = {
    groundTruth: "def f(x):\n    return x\n",
    testCases: { a: "f(1)" },
    answer: "def f(x):\n    return x\n",
  };

  it("are imported only once answers keep naming them", async () => {
    // The first answer to name a module imports it itself; the second finds it loaded.
    expect(await asks(scorer, "typing")).toBe(false);
    expect(await asks(scorer, "typing")).toBe(true);
    // Named once per hundred answers: not worth every later fork's cost.
    expect(await asks(scorer, "heapq")).toBe(false);
    for (let i = 0; i < 100; i++) await scorer.score(plain);
    expect(await asks(scorer, "heapq")).toBe(false);
    expect(await asks(scorer, "heapq")).toBe(true);
    // Never one outside the list, however often it is named.
    for (let i = 0; i < 3; i++) expect(await asks(scorer, "statistics")).toBe(false);
  });
});
