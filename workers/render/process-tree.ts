import { readdirSync, readFileSync } from "node:fs";

// A browser's process tree, read from /proc: its private memory (what one page can grow) and a
// kill that takes every process of it at once (a renderer must not outlive its browser).

const PAGE_BYTES = 4096;

/** The parent of one process, from /proc/PID/stat; null when it has ended. */
function parentOf(pid: string): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return null; // ended meanwhile
  }
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ", 2)[1]);
}

function childrenTable(parent: Map<string, number>): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parent) {
    const list = children.get(ppid);
    if (list) list.push(Number(pid));
    else children.set(ppid, [Number(pid)]);
  }
  return children;
}

/** Children of every process on the machine (one pass over /proc; ~2-5 ms for 130 processes). */
function parents(): Map<number, number[]> {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return new Map();
  }
  const parent = new Map<string, number>();
  for (const name of names) {
    if (name.charCodeAt(0) > 57) continue; // not a process id
    const ppid = parentOf(name);
    if (ppid !== null) parent.set(name, ppid);
  }
  return childrenTable(parent);
}

/**
 * The same table kept between calls: each call lists /proc and reads the stat of processes it has
 * not seen before only. A process keeps its parent until that parent ends, and then it is no
 * longer below the parent's tree either way; so the memory watch, which asks four times a
 * second, does not read every process on the machine each time.
 */
class ProcessTable {
  private readonly parent = new Map<string, number>();

  children(): Map<number, number[]> {
    let names: string[];
    try {
      names = readdirSync("/proc");
    } catch {
      return new Map();
    }
    const alive = new Set<string>();
    for (const name of names) {
      if (name.charCodeAt(0) > 57) continue;
      alive.add(name);
      if (this.parent.has(name)) continue;
      const ppid = parentOf(name);
      if (ppid !== null) this.parent.set(name, ppid);
    }
    for (const pid of this.parent.keys()) if (!alive.has(pid)) this.parent.delete(pid);
    return childrenTable(this.parent);
  }
}

const table = new ProcessTable();

/** The process and all its descendants, from a table made by parents(). */
function treeOf(pid: number, children: Map<number, number[]>): number[] {
  const out: number[] = [];
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    out.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return out;
}

/**
 * Resident memory that is the process's own (resident minus file-backed and shared pages), summed
 * over each tree: what a page growing its heap, DOM or canvases adds. Shared libraries and the
 * shared memory the compositor draws through are not counted.
 */
export function privateBytesOfTrees(roots: number[]): Map<number, number> {
  const children = table.children();
  const out = new Map<number, number>();
  for (const root of roots) {
    let total = 0;
    for (const pid of treeOf(root, children)) {
      try {
        const [, resident, shared] = readFileSync(`/proc/${pid}/statm`, "latin1").split(" ").map(Number);
        total += Math.max(0, resident! - shared!) * PAGE_BYTES;
      } catch {
        // ended meanwhile
      }
    }
    out.set(root, total);
  }
  return out;
}

/** SIGKILL to the process and every descendant, all found before the first is killed. */
export function killTree(pid: number): void {
  for (const p of treeOf(pid, parents())) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
