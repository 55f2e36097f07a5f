"use client";

import { useState } from "react";
import { usePythonScratch } from "@/components/play/usePythonScratch";

/** Scratch lines run after the person's function, in this tab (Pyodide): the agent seat's workbench. */
export function PythonScratch({ code }: { code: string }) {
  const python = usePythonScratch();
  const [calls, setCalls] = useState("");
  const [output, setOutput] = useState<{ ok: boolean; output: string } | null>(null);
  const run = async () => setOutput(await python.run(`${code}\n${calls}`));
  return (
    <div className="rounded-lg border border-stone-200 bg-white p-3" data-testid="python-scratch">
      <label className="flex flex-col gap-1 text-xs text-stone-600">
        Scratch lines run after your code (e.g. print(solution())); Python runs in this browser tab (Pyodide), never on
        the server
        <textarea
          value={calls}
          onChange={(e) => setCalls(e.target.value)}
          rows={3}
          className="rounded-md border border-stone-300 px-2.5 py-1.5 font-mono text-sm"
        />
      </label>
      <div className="mt-2 flex items-center gap-2">
        <button
          type="button"
          onClick={() => void run()}
          disabled={python.state === "running"}
          className="rounded-md bg-stone-800 px-3 py-1.5 text-sm text-white hover:bg-stone-900 disabled:opacity-50"
        >
          {python.state === "running" ? "Running…" : python.state === "booting" ? "Starting Python…" : "Run my code"}
        </button>
        {python.state === "running" ? (
          <button
            type="button"
            onClick={python.reset}
            className="rounded-md border border-stone-300 px-3 py-1.5 text-sm"
          >
            Stop
          </button>
        ) : null}
      </div>
      {output ? (
        <pre
          data-testid="scratch-output"
          data-ok={output.ok}
          className={`mt-2 max-h-60 overflow-auto whitespace-pre-wrap rounded p-2 font-mono text-xs ${output.ok ? "bg-stone-100 text-stone-800" : "bg-red-50 text-red-800"}`}
        >
          {output.output || "(no output)"}
        </pre>
      ) : null}
    </div>
  );
}
