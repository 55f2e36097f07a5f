import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackendScorer } from "./scorer";

// Answers that attack the sandbox. Each must score 0, leave nothing behind, and leave the pool
// able to score the next answer. Where a protection depends on a mechanism this machine refuses
// (the worker reports what it could set up), that check is skipped and says so.

let scorer: BackendScorer;
let outside: string;
beforeAll(async () => {
  scorer = await BackendScorer.start({ workers: 2 });
  outside = mkdtempSync(path.join(os.tmpdir(), "colbench-hostile-"));
  // So that a CI log says which of the checks below had their mechanism to test.
  const iso = scorer.isolation;
  console.info(
    `sandbox isolation here: ${iso.network}; ${iso.filesystem}; ${iso.pid}; ${iso.user}; cgroup ${iso.cgroup}`,
  );
});
afterAll(async () => {
  await scorer?.close();
  if (outside) rmSync(outside, { recursive: true, force: true });
});

const truth = "def f(x):\n    return x * 2\n";
const oneTest = { a: "f(21)" };
// The banned-string rule stops `import os`; __import__ with a computed name gets past it.
const OS = "__import__('o' + 's')";

async function hostile(answer: string, testCases: Record<string, string> = oneTest) {
  const result = await scorer.score({ groundTruth: truth, testCases, answer });
  expect(result.reward).toBe(0);
  return result;
}

async function stillScores() {
  const result = await scorer.score({ groundTruth: truth, testCases: { a: "f(1)", b: "f(2)" }, answer: truth });
  expect(result.reward).toBe(1);
}

function sandboxUid(): number | null {
  const match = /^uid (\d+) \(unprivileged/.exec(scorer.isolation.user);
  return match ? Number(match[1]) : null;
}

/** Processes owned by the children's uid, children of the workers other than their zygotes, and
 *  children of the zygotes (between requests: none). */
function leftovers(): string[] {
  const uid = sandboxUid();
  const zygotes = new Set(scorer.zygotePids());
  const parents = new Set([...scorer.workerPids(), ...zygotes]);
  const found: string[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      const owner = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
      const parent = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      if (zygotes.has(Number(entry))) continue;
      if ((uid !== null && owner === uid) || parents.has(parent)) found.push(`${entry}: ${status.split("\n")[0]}`);
    } catch {
      // gone while we looked
    }
  }
  return found;
}

const fsIsolated = () => scorer.isolation.filesystem.startsWith("mountns");
const privateUid = () => sandboxUid() !== null;
const netIsolated = () => scorer.isolation.network.startsWith("netns");
const processesBounded = () => privateUid() || scorer.isolation.cgroup.startsWith("v");
const pidIsolated = () => scorer.isolation.pid.startsWith("pidns") || privateUid();

describe("hostile answers", () => {
  it("os.system and subprocess cannot touch files outside the scratch dir", async (ctx) => {
    if (!fsIsolated() && !privateUid()) ctx.skip(); // needs a mount namespace or an unprivileged uid
    const viaSystem = path.join(outside, "marker-system");
    const viaSubprocess = path.join(outside, "marker-subprocess");
    await hostile(`def f(x):\n    ${OS}.system('touch ${viaSystem}')\n    return None\n`);
    await hostile(
      `def f(x):\n    sp = __import__('subprocess')\n    sp.run(['sh', '-c', 'touch ${viaSubprocess}'])\n    return None\n`,
    );
    expect(existsSync(viaSystem)).toBe(false);
    expect(existsSync(viaSubprocess)).toBe(false);
    await stillScores();
  });

  it("cannot write a file outside the scratch dir, not even in a world-writable /tmp", async (ctx) => {
    if (!fsIsolated()) ctx.skip(); // the read-only tree needs a mount namespace
    const inTmp = path.join(os.tmpdir(), `colbench-escape-${process.pid}-${Date.now()}`);
    const inOutside = path.join(outside, "written");
    await hostile(`def f(x):\n    open('${inTmp}', 'w').write('x')\n    return x * 2\n`);
    await hostile(`def f(x):\n    open('${inOutside}', 'w').write('x')\n    return x * 2\n`);
    await hostile(`def f(x):\n    open('${path.resolve("package.json")}', 'a').write('x')\n    return x * 2\n`);
    expect(existsSync(inTmp)).toBe(false);
    expect(existsSync(inOutside)).toBe(false);
    await stillScores();
  });

  it("cannot connect to a port on 127.0.0.1", async (ctx) => {
    if (!netIsolated()) ctx.skip(); // needs a network namespace
    let connections = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const result = await hostile(
        `def f(x):\n    s = __import__('socket').create_connection(('127.0.0.1', ${port}), timeout=0.5)\n    s.sendall(b'hello')\n    return x * 2\n`,
      );
      expect(result.tests[0]!.reason).toMatch(/^exception: /);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
    await stillScores();
  });

  it("a fork bomb is contained and leaves no process behind", async (ctx) => {
    if (!processesBounded()) ctx.skip(); // needs an unprivileged uid (RLIMIT_NPROC) or a pids cgroup
    await hostile(`def f(x):\n    while True:\n        ${OS}.fork()\n`);
    await hostile(
      `def f(x):\n    o = ${OS}\n    while True:\n        try:\n            o.fork()\n        except BaseException:\n            pass\n`,
    );
    expect(leftovers()).toEqual([]);
    await stillScores();
  });

  it("a daemon that escapes with setsid() still dies with the answer", async (ctx) => {
    if (!pidIsolated()) ctx.skip(); // needs a pid namespace or an unprivileged uid to sweep
    await hostile(
      `def f(x):\n    o = ${OS}\n    if o.fork() == 0:\n        o.setsid()\n        __import__('time').sleep(60)\n    return None\n`,
    );
    expect(leftovers()).toEqual([]);
    await stillScores();
  });

  it("allocating 10 GB fails inside the sandbox", async () => {
    const result = await hostile("def f(x):\n    block = bytearray(10 * 1024 ** 3)\n    return x * 2\n");
    expect(result.tests[0]!.reason).toBe("exception: MemoryError");
    await stillScores();
  });

  it("an endless loop times out", async () => {
    const result = await hostile("def f(x):\n    while True:\n        pass\n");
    expect(result.tests[0]!.reason).toBe("timeout");
    await stillScores();
  });

  it("swallowing the timeout in a loop does not help", async () => {
    const result = await hostile(
      "def f(x):\n    while True:\n        try:\n            while True:\n                pass\n        except BaseException:\n            pass\n",
      { a: "f(1)", b: "f(2)" },
    );
    expect(result.tests.map((t) => t.reason)).toEqual(["timeout", "timeout"]);
    await stillScores();
  });

  it("ignoring the alarm, or a long C call that never yields, is killed and the next test still runs", async () => {
    const ignore = `def f(x):\n    s = __import__('signal')\n    s.signal(s.SIGALRM, s.SIG_IGN)\n    while True:\n        pass\n`;
    expect((await hostile(ignore, { a: "f(1)", b: "f(2)" })).tests.map((t) => t.reason)).toEqual([
      "timeout",
      "timeout",
    ]);
    const stuck = "def f(x):\n    return sum(range(10 ** 12)) if x == 1 else x * 3\n";
    const result = await hostile(stuck, { a: "f(1)", b: "f(2)" });
    expect(result.tests.map((t) => t.reason)).toEqual(["timeout", "mismatch"]);
    await stillScores();
  });

  it("deep recursion through C crashes only the sandbox child", async () => {
    const deep =
      "def f(x):\n    __import__('s' + 'ys').setrecursionlimit(10 ** 7)\n    g = lambda n: list(map(g, [n + 1]))\n    return g(0)\n";
    const result = await hostile(deep, { a: "f(1)", b: "f(2)" });
    for (const test of result.tests)
      expect(test.reason).toMatch(/^(crashed: |exception: (RecursionError|MemoryError))/);
    await stillScores();
  });

  it("printing a billion characters neither floods nor breaks anything", async () => {
    const result = await hostile(
      "def f(x):\n    for _ in range(1000):\n        print('x' * 10 ** 6)\n    return x * 3\n",
    );
    expect(result.tests[0]!.reason).toBe("mismatch");
    expect(result.output!.length).toBeLessThan(10_000);
    await stillScores();
  });

  it("writing to fds 0-3 directly cannot corrupt the protocol", async () => {
    const scribble = `def f(x):\n    o = ${OS}\n    for fd in (0, 1, 2, 3, 4, 5):\n        try:\n            o.write(fd, b'\\x00\\x00\\x00\\x05{"id"' * 1000)\n        except OSError:\n            pass\n    return None\n`;
    await hostile(scribble, { a: "f(1)", b: "f(2)" });
    await stillScores();
  });

  it("killing its parent or every process it can see does not take the pool down", async () => {
    await hostile(`def f(x):\n    ${OS}.kill(${OS}.getppid(), 9)\n    return None\n`);
    const everyone = `def f(x):\n    o = ${OS}\n    for p in o.listdir('/proc'):\n        if p.isdigit() and int(p) != o.getpid():\n            try:\n                o.kill(int(p), 9)\n            except OSError:\n                pass\n    return None\n`;
    await hostile(everyone);
    await stillScores();
    expect(scorer.workerPids().length).toBe(2);
  });

  it("dirs nested past PATH_MAX in its scratch dir are removed, and the zygote carries on", async (ctx) => {
    if (!fsIsolated()) ctx.skip(); // the scratch tmpfs (seen through the zygote's /proc root) needs a mount namespace
    // Deeper than recursive removers go (shutil.rmtree stops at ~1000 levels and leaves the rest).
    const zygotes = scorer.zygotePids();
    const restarts = scorer.restarts;
    await hostile(
      `def f(x):\n    o = ${OS}\n    for _ in range(2500):\n        o.mkdir('d')\n        o.chdir('d')\n        open('f', 'w').write('x')\n    return None\n`,
    );
    await stillScores();
    expect(scorer.restarts).toBe(restarts);
    expect(scorer.zygotePids()).toEqual(zygotes);
    // Between answers the scratch tmpfs holds nothing: no tree left to fill it up for later answers.
    for (const zygote of zygotes) expect(readdirSync(`/proc/${zygote}/root/tmp`)).toEqual([]);
  });

  it("leaves no sandbox process behind after all of the above", () => {
    expect(leftovers()).toEqual([]);
  });
});
