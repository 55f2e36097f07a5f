import type { RunManager } from "./manager";
import { processSlot } from "../process-slot";

// Like the database, one run manager per process: `colbench serve` makes it, route code finds it
// here without bundling the runner, the sandbox client or the render pool.
const slot = processSlot<RunManager>("colbench.runManager");

export function setRunManager(manager: RunManager): void {
  slot.set(manager);
}

export function getRunManager(): RunManager {
  return slot.need("no run manager in this process: start the studio with `npx colbench serve`");
}
