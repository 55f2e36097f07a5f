// A module Web Worker that runs the person's own Python in Pyodide (CPython compiled to
// WebAssembly) inside their browser tab: the agent seat's "run my code" area. It never sees the
// task's hidden tests; it is a scratch pad. One message in ({id, code}), one message out.
import { loadPyodide } from "/vendor/pyodide/pyodide.mjs";

let ready = null;
function boot() {
  ready ??= loadPyodide({ indexURL: "/vendor/pyodide/" }).then((py) => {
    self.postMessage({ type: "ready", version: py.version });
    return py;
  });
  return ready;
}

/**
 * A Python traceback without Pyodide's own frames (its runner in /lib/python3xx.zip/_pyodide/...):
 * the person sees the frames of their code and the error, as CPython would show them.
 */
function ownFrames(text) {
  const lines = text.split("\n");
  const kept = [];
  let skipping = false;
  for (const line of lines) {
    const frame = /^  File "([^"]*)"/.exec(line);
    if (frame) skipping = /\/_pyodide\/|^\/lib\/python\d+\.zip\//.test(frame[1]);
    else if (!line.startsWith("    ")) skipping = false;
    if (!skipping) kept.push(line);
  }
  return kept.join("\n");
}

self.onmessage = async (event) => {
  const { id, code } = event.data;
  const out = [];
  try {
    const py = await boot();
    py.setStdout({ batched: (line) => out.push(line) });
    py.setStderr({ batched: (line) => out.push(line) });
    // A fresh namespace per run, so one run's names do not leak into the next.
    const globals = py.toPy({});
    let result = await py.runPythonAsync(code, { globals });
    if (result !== undefined && result !== null) {
      const shown =
        typeof result === "object" && typeof result.toString === "function" ? result.toString() : String(result);
      if (typeof result.destroy === "function") result.destroy();
      out.push(shown);
    }
    globals.destroy();
    self.postMessage({ type: "result", id, ok: true, output: out.join("\n") });
  } catch (error) {
    out.push(ownFrames(String(error && error.message ? error.message : error)));
    self.postMessage({ type: "result", id, ok: false, output: out.join("\n") });
  }
};

boot().catch((error) => self.postMessage({ type: "failed", message: String(error) }));
