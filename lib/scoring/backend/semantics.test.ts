import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackendScorer, type BackendScore } from "./scorer";

// The benchmark's scoring rules, end to end through the Python sandbox.

let scorer: BackendScorer;
beforeAll(async () => {
  scorer = await BackendScorer.start({ workers: 2 });
});
afterAll(async () => {
  await scorer?.close();
});

const plusOne = "def f(x):\n    return x + 1\n";
const twoTests = { a: "f(1)", b: "f(2)" };
const reasons = (score: BackendScore) => score.tests.map((t) => t.reason);
const score = (answer: string, groundTruth = plusOne, testCases: Record<string, string> = twoTests) =>
  scorer.score({ groundTruth, testCases, answer });

describe("code fences", () => {
  it("keeps what follows ```python up to the next fence", async () => {
    expect((await score("Here you go:\n```python\ndef f(x):\n    return x + 1\n```\nDone.")).reward).toBe(1);
    // Only the first python block counts, later ones (a demo, say) are dropped.
    expect(
      (await score("```python\ndef f(x):\n    return x + 1\n```\nthen\n```python\ndef f(x):\n    return 0\n```"))
        .reward,
    ).toBe(1);
  });

  it("then keeps what lies between the first two plain fences", async () => {
    expect((await score("```\ndef f(x):\n    return x + 1\n```")).reward).toBe(1);
    expect(
      (await score("first ```\ndef f(x):\n    return x + 1\n``` then ```\ndef f(x):\n    return 0\n```")).reward,
    ).toBe(1);
  });

  it("does not know other language tags: ```py leaves a stray `py` line", async () => {
    const result = await score("```py\ndef f(x):\n    return x + 1\n```");
    expect(result.reward).toBe(0);
    expect(reasons(result)).toEqual(["exception: NameError", "exception: NameError"]);
  });

  it("runs an answer without fences as it is", async () => {
    expect((await score(plusOne)).reward).toBe(1);
  });
});

describe("banned strings", () => {
  const banned = [
    "import os",
    "from os",
    "import sys",
    "from sys",
    "sudo",
    "transformers",
    "exit(",
    "quit(",
    "argparse",
  ];
  it.each(banned)("%s anywhere in the answer scores 0 without running it", async (word) => {
    const result = await score(`Note: ${word} is not needed.\n\`\`\`python\n${plusOne}\`\`\``);
    expect(result.reward).toBe(0);
    expect(reasons(result)).toEqual([`banned: ${word}`, `banned: ${word}`]);
  });
});

describe("calls", () => {
  it("an exception is None, so the test fails", async () => {
    const result = await score("def f(x):\n    return x / 0\n");
    expect(result.reward).toBe(0);
    expect(reasons(result)).toEqual(["exception: ZeroDivisionError", "exception: ZeroDivisionError"]);
  });

  it("SystemExit and syntax errors are exceptions like any other", async () => {
    expect(reasons(await score("def f(x):\n    raise SystemExit(3)\n"))).toEqual([
      "exception: SystemExit",
      "exception: SystemExit",
    ]);
    expect(reasons(await score("def f(x) return x\n"))).toEqual(["exception: SyntaxError", "exception: SyntaxError"]);
  });

  it("a ground truth that gives None fails the test, even when the answer gives None too", async () => {
    const nothing = "def f(x):\n    pass\n";
    const result = await score(nothing, nothing);
    expect(result.reward).toBe(0);
    expect(reasons(result)).toEqual(["ground truth failed", "ground truth failed"]);
    expect(reasons(await score(plusOne, "def f(x):\n    raise ValueError\n"))).toEqual([
      "ground truth failed",
      "ground truth failed",
    ]);
  });

  it("the answer's call has one second", async () => {
    const slow = await score("import time\ndef f(x):\n    time.sleep(5)\n    return x + 1\n", plusOne, { a: "f(1)" });
    expect(reasons(slow)).toEqual(["timeout"]);
    const quick = await score("import time\ndef f(x):\n    time.sleep(0.2)\n    return x + 1\n", plusOne, {
      a: "f(1)",
    });
    expect(quick.reward).toBe(1);
  });

  it("past the limit is a timeout even if the answer swallows the alarm and returns", async () => {
    const sly =
      "import time\ndef f(x):\n    try:\n        time.sleep(5)\n    except BaseException:\n        pass\n    return x + 1\n";
    expect(reasons(await score(sly, plusOne, { a: "f(1)" }))).toEqual(["timeout"]);
  });

  it("each test runs the definitions in a fresh namespace", async () => {
    const counter = "n = 0\ndef f(x):\n    global n\n    n += 1\n    return n\n";
    const result = await score(counter, "def f(x):\n    return 1\n", { a: "f(0)", b: "f(0)", c: "f(0)" });
    expect(result.reward).toBe(1);
  });

  it("modules load wherever an answer imports them, loaded ahead by the zygote or not", async () => {
    // re and typing are among the modules the zygote imports on first use; statistics is not.
    const usesRe =
      "import re\nfrom typing import List\ndef f(x: str) -> List[str]:\n    return re.findall('[a-z]+', x)\n";
    const truth = "def f(x):\n    return [w for w in ''.join(c if c.islower() else ' ' for c in x).split()]\n";
    for (let i = 0; i < 2; i++) expect((await score(usesRe, truth, { a: "f('ab1cd')" })).reward).toBe(1);
    const usesStatistics = "def f(xs):\n    return __import__('statistics').mean(xs)\n";
    expect(
      (await score(usesStatistics, "def f(xs):\n    return sum(xs) / len(xs)\n", { a: "f([1, 2, 3])" })).reward,
    ).toBe(1);
  });

  it("random starts from a fresh seed in every sandbox child", async () => {
    // The ground truth's own draw and the answer's, in two children each: four different values.
    const draw = "import random\ndef f():\n    return random.random()\n";
    const seen = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const result = await score(draw, draw, { a: "f()" });
      expect(reasons(result)).toEqual(["mismatch"]);
      seen.add(result.tests[0]!.expected!);
      seen.add(result.tests[0]!.actual!);
    }
    expect(seen.size).toBe(4);
  });

  it("the answer never sees the ground truth's names or files", async () => {
    const truth = "SECRET = 7\ndef f(x):\n    open('note.txt', 'w').write('x')\n    return SECRET\n";
    expect(reasons(await score("def f(x):\n    return SECRET\n", truth, { a: "f(0)" }))).toEqual([
      "exception: NameError",
    ]);
    const looks = "def f(x):\n    return 7 if not __import__('o' + 's').path.exists('note.txt') else 0\n";
    expect((await score(looks, truth, { a: "f(0)" })).reward).toBe(1);
  });
});

describe("comparison is Python's ==", () => {
  const compare = (truth: string, answer: string) =>
    score(`def f():\n    return ${answer}\n`, `def f():\n    return ${truth}\n`, { a: "f()" });

  it("1 == 1.0 and True == 1 pass", async () => {
    expect((await compare("1", "1.0")).reward).toBe(1);
    expect((await compare("1", "True")).reward).toBe(1);
    expect((await compare("{'a': [1, 2]}", "dict(a=[1, 2])")).reward).toBe(1);
  });

  it("[1] against (1,) and NaN against NaN fail", async () => {
    expect(reasons(await compare("[1]", "(1,)"))).toEqual(["mismatch"]);
    expect(reasons(await compare("float('nan')", "float('nan')"))).toEqual(["mismatch"]);
  });

  it("an __eq__ that raises fails the test", async () => {
    const result = await score(
      "class Odd:\n    def __eq__(self, other):\n        raise RuntimeError\ndef f():\n    return Odd()\n",
      "def f():\n    return 1\n",
      { a: "f()" },
    );
    expect(reasons(result)).toEqual(["compare failed: RuntimeError"]);
  });
});

describe("rewards and details", () => {
  it("reward is the fraction of tests passed", async () => {
    const result = await score("def f(x):\n    return x + 1 if x < 4 else 0\n", plusOne, {
      a: "f(1)",
      b: "f(2)",
      c: "f(3)",
      d: "f(4)",
    });
    expect(result.reward).toBe(0.75);
    expect(result.tests.map((t) => [t.name, t.expression, t.passed])).toEqual([
      ["a", "f(1)", true],
      ["b", "f(2)", true],
      ["c", "f(3)", true],
      ["d", "f(4)", false],
    ]);
    expect(result.tests[3]).toMatchObject({ reason: "mismatch", expected: "5", actual: "0" });
  });

  it("captures what the answer prints", async () => {
    const result = await score("def f(x):\n    print('thinking', x)\n    return x + 1\n");
    expect(result.reward).toBe(1);
    expect(result.output).toContain("thinking 1");
  });

  it("a task without tests scores 0", async () => {
    expect(await score(plusOne, plusOne, {})).toEqual({ reward: 0, tests: [] });
  });
});
