import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PromptRole, PromptSet } from "../colbench/prompts";

// A benchmark's two prompts live in its module's folder (NAME/agent-prompt.txt, NAME/simulator-prompt.txt),
// written for this project with the benchmark's instructions and markers. A run may replace either with a
// file a user supplies; the run records the text it used.

const here = path.dirname(fileURLToPath(import.meta.url));

export function defaultPrompt(benchmark: string, role: PromptRole): string {
  return fs.readFileSync(path.join(here, benchmark, `${role}-prompt.txt`), "utf8");
}

export function loadPrompts(benchmark: string, files: Partial<Record<PromptRole, string>> = {}): PromptSet {
  const read = (role: PromptRole) => {
    const file = files[role];
    if (!file) return defaultPrompt(benchmark, role);
    if (!fs.existsSync(file)) throw new Error(`${file}: no such prompt file (--${role}-prompt)`);
    return fs.readFileSync(file, "utf8");
  };
  return { agent: read("agent"), simulator: read("simulator") };
}
