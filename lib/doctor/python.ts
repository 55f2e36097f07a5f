import { SandboxWorker } from "../scoring/backend/worker";
import type { HelloMessage } from "../scoring/backend/protocol";
import { checkoutFile } from "./files";
import { runProgram } from "./proc";
import { part, type Part } from "./types";

const PYTHON_FIX =
  "run `npm run setup` (installs Debian's python3 with apt-get), or set COLBENCH_PYTHON to a CPython 3.9+ interpreter";
const NUMPY_FIX =
  "run `npm run setup` (installs python3-numpy for the system python3), or `python3 -m pip install numpy` for the interpreter named";

/**
 * Python, numpy and the sandbox, as the backend scorer sees them: one sandbox worker is started
 * (its hello says what isolation this machine allows), and numpy is imported the way the worker
 * finds packages (site-packages, no user site).
 */
export async function checkPython(): Promise<Part[]> {
  const command = process.env.COLBENCH_PYTHON ?? "python3";
  let hello: HelloMessage;
  try {
    const worker = await SandboxWorker.start({
      python: command,
      workerPath: checkoutFile("workers", "python", "worker.py"),
      config: { limits: {}, preload: [] },
      helloTimeoutMs: 20_000,
    });
    hello = worker.hello;
    await worker.close();
  } catch (error) {
    const reason = (error as Error).message;
    return [
      part({
        id: "python",
        name: "Python",
        status: "missing",
        required: true,
        summary: `\`${command}\` could not start the sandbox worker: ${reason}`,
        fix: PYTHON_FIX,
        details: { command },
      }),
      part({
        id: "numpy",
        name: "numpy",
        status: "missing",
        required: false,
        summary: "not checked: no working Python",
        fix: NUMPY_FIX,
      }),
      part({
        id: "sandbox",
        name: "Python sandbox",
        status: "missing",
        required: true,
        summary: "not started: no working Python",
        fix: PYTHON_FIX,
      }),
    ];
  }
  const [major = 0, minor = 0] = hello.python.split(".").map(Number);
  const fits = major > 3 || (major === 3 && minor >= 9);
  const executable = hello.executable ?? command;
  const python = part({
    id: "python",
    name: "Python",
    status: fits ? "ok" : "missing",
    required: true,
    summary: `CPython ${hello.python} at ${executable}${fits ? "" : " (the sandbox needs 3.9 or newer)"}`,
    fix: fits ? undefined : PYTHON_FIX,
    details: { command, executable, version: hello.python },
  });

  const probe = await runProgram(
    executable,
    [
      "-S",
      "-E",
      "-c",
      "import site, sys\nsys.path += [p for p in site.getsitepackages() if p not in sys.path]\nimport numpy\nprint(numpy.__version__)",
    ],
    { timeoutMs: 30_000 },
  );
  const numpyVersion = probe.code === 0 ? probe.stdout.trim() : undefined;
  const numpy = part({
    id: "numpy",
    name: "numpy",
    status: numpyVersion ? "ok" : "missing",
    required: false,
    summary: numpyVersion
      ? `${numpyVersion} (for ${executable})`
      : `not importable by ${executable}: three official backend tasks' tests use it`,
    fix: numpyVersion ? undefined : NUMPY_FIX,
    details: {
      version: numpyVersion ?? null,
      error: numpyVersion ? null : (probe.failure ?? probe.stderr.trim().split("\n").slice(-1)[0] ?? null),
    },
  });

  const iso = hello.isolation;
  const networkCut = /^netns/.test(iso.network);
  const whole = networkCut && iso.warnings.length === 0;
  const sandbox = part({
    id: "sandbox",
    name: "Python sandbox",
    status: whole ? "ok" : "degraded",
    required: true,
    summary: `network: ${iso.network}; pid: ${iso.pid.split(":")[0]}; filesystem: ${iso.filesystem.split(":")[0]}; cgroup: ${iso.cgroup.split(":")[0]}${iso.warnings.length ? `; ${iso.warnings.join("; ")}` : ""}`,
    fix: whole
      ? undefined
      : "run the studio on Linux as root (or with unprivileged user namespaces and a writable cgroup) so answers run without network in their own namespaces; see workers/python/README.md",
    details: { ...iso },
  });
  return [python, numpy, sandbox];
}
