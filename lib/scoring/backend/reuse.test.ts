import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../paths";
import { BackendScorer } from "./scorer";

// Resident sandbox children (workers/python/reuse.py): requests that pass the code check run one
// after another in one child while more wait. Whatever one answer tries to leave behind, the next
// one must start as it would in a fresh child.

let scorer: BackendScorer;
beforeAll(async () => {
  // One worker: every request below goes through the same zygote, one after the other.
  scorer = await BackendScorer.start({ workers: 1, numpyLane: false });
});
afterAll(async () => {
  await scorer?.close();
});

const truthOne = "def f():\n    return 1\n";

/** Scores `check`, then `attack`, then `check` again, all queued at once (so that one resident child
 *  would serve them all, with the modules they import already loaded); returns the last check's
 *  reason. The attack's own score does not matter. */
async function after(attack: string, check: string, expected: string): Promise<string> {
  const checked = () =>
    scorer.score({ groundTruth: `def f():\n    return ${expected}\n`, testCases: { a: "f()" }, answer: check });
  const before = Array.from({ length: 4 }, checked);
  const first = scorer.score({ groundTruth: truthOne, testCases: { a: "f()" }, answer: attack });
  const second = checked();
  const [, , result] = await Promise.all([Promise.all(before), first, second]);
  return result.tests[0]!.reason;
}

describe("a resident child", () => {
  it("is in use here", () => {
    expect(scorer.isolation.reuse).toBe(true);
  });

  it("never lets a module change reach the next answer", async () => {
    const check = "import math\ndef f():\n    return math.pi\n";
    expect(await after("import math\ndef f():\n    math.pi = 3\n    return 1\n", check, "3.141592653589793")).toBe(
      "ok",
    );
    const json = "import json\ndef f():\n    return json.dumps('a')\n";
    const escapes = "import json\ndef f():\n    json.encoder.ESCAPE_DCT['a'] = 'Z'\n    return 1\n";
    expect(await after(escapes, json, "'\"a\"'")).toBe("ok");
  });

  it("never lets a change to builtins or a shared registry reach the next answer", async () => {
    const builtins = "def f():\n    __builtins__['len'] = lambda x: 42\n    return 1\n";
    expect(await after(builtins, "def f():\n    return len([1, 2])\n", "2")).toBe("ok");
    const register = "import collections.abc\ndef f():\n    collections.abc.Sequence.register(dict)\n    return 1\n";
    const isSequence = "import collections.abc\ndef f():\n    return isinstance({}, collections.abc.Sequence)\n";
    expect(await after(register, isSequence, "False")).toBe("ok");
  });

  it("runs none of an answer's code during the next one", async () => {
    const finalizer =
      "class Leak:\n    def __del__(self):\n        print('from the last answer')\n" +
      "def f():\n    a = Leak()\n    a.me = a\n    return 1\n";
    const cycle = "class Node:\n    pass\ndef f():\n    n = Node()\n    n.self = n\n    return 1\n";
    for (const attack of [finalizer, cycle]) {
      const pad = scorer.score({ groundTruth: truthOne, testCases: { a: "f()" }, answer: truthOne });
      const first = scorer.score({ groundTruth: truthOne, testCases: { a: "f()" }, answer: attack });
      const second = scorer.score({ groundTruth: truthOne, testCases: { a: "f()" }, answer: truthOne });
      const [, , result] = await Promise.all([pad, first, second]);
      expect(result.output ?? "").toBe("");
    }
  });
});

describe("reuse.py's list of refused names", () => {
  it("covers every module-valued or mutable public attribute of the modules it allows, on this Python", () => {
    const script = [
      "import importlib, sys, types",
      "sys.path.insert(0, sys.argv[1])",
      "import reuse",
      "missing = set()",
      "for name in reuse.ALLOWED:",
      "    for key, value in vars(importlib.import_module(name)).items():",
      "        risky = isinstance(value, types.ModuleType) and value.__name__ not in reuse.ALLOWED",
      "        risky = risky or isinstance(value, (dict, list, set, bytearray))",
      "        if risky and not key.startswith('_') and key not in reuse._NAMES:",
      "            missing.add(name + '.' + key)",
      "print(sorted(missing))",
    ].join("\n");
    const python = process.env.COLBENCH_PYTHON ?? "python3";
    const run = spawnSync(python, ["-c", script, path.join(projectRoot, "workers", "python")], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("[]");
  });
});
