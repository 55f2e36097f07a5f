import { readdirSync, readFileSync } from "node:fs";

// A browser's process tree, read from /proc: its private memory (what one page can grow) and a
// kill that takes every process of it at once (a renderer must not outlive its browser).

const PAGE_BYTES = 4096;

/** Parent of every process on the machine (one pass over /proc; ~2 ms for 130 processes). */
function parents(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return children;
  }
  for (const name of names) {
    if (name.charCodeAt(0) > 57) continue; // not a process id
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "latin1");
    } catch {
      continue; // ended meanwhile
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ", 2)[1]);
    const list = children.get(ppid);
    if (list) list.push(Number(name));
    else children.set(ppid, [Number(name)]);
  }
  return children;
}

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
  const children = parents();
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
