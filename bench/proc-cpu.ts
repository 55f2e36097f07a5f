import { readdirSync, readFileSync } from "node:fs";

// CPU seconds (user + system) used so far by a process and all its descendants, from /proc.
// Wall-clock rates on a shared 2-core machine move with everyone else's load; CPU per page does not.

const TICKS_PER_SECOND = 100;

export interface ProcessStat {
  ppid: number;
  /** CPU seconds (user + system) of the process itself. */
  cpu: number;
  /** CPU seconds of the children it has reaped. */
  childCpu: number;
  /** Minor page faults of the process, and of its reaped children. */
  faults: number;
  childFaults: number;
}

/** One process's counters from /proc/PID/stat; throws if it is gone. */
export function processStat(pid: number | string): ProcessStat {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  // After the command: state, ppid, ..., minflt, cminflt, majflt, cmajflt, utime, stime, cutime,
  // cstime (fields 10-17 overall).
  const f = text
    .slice(text.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
  return {
    ppid: f[1]!,
    cpu: (f[11]! + f[12]!) / TICKS_PER_SECOND,
    childCpu: (f[13]! + f[14]!) / TICKS_PER_SECOND,
    faults: f[7]!,
    childFaults: f[8]!,
  };
}

function stat(pid: string): { ppid: number; cpu: number } | null {
  try {
    const s = processStat(pid);
    // The children it has reaped count too: Chromium replaces renderer processes as pages come
    // and go, and their CPU must not vanish with them.
    return { ppid: s.ppid, cpu: s.cpu + s.childCpu };
  } catch {
    return null;
  }
}

/** The machine's CPU time so far, all cores together, in ticks: busy (user, system, interrupts), idle (idle, iowait) and steal (taken by the hypervisor). */
export function machineTicks(): { busy: number; idle: number; steal: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user)
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return { busy: user! + nice! + system! + irq! + softirq!, idle: idle! + iowait!, steal: steal! };
}

/** Every process's CPU seconds and its children, read once from /proc (null when /proc cannot be read). */
function processTable(): { cpu: Map<number, number>; children: Map<number, number[]> } | null {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    const s = stat(pid);
    if (!s) continue;
    cpu.set(Number(pid), s.cpu);
    const list = children.get(s.ppid) ?? [];
    list.push(Number(pid));
    children.set(s.ppid, list);
  }
  return { cpu, children };
}

export function treeCpuSeconds(rootPid: number): number | null {
  const table = processTable();
  if (!table) return null;
  const { cpu, children } = table;
  if (!cpu.has(rootPid)) return null;
  let total = 0;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    total += cpu.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** What a process is, for a breakdown: Chromium's `--type=` (renderer, gpu-process, zygote, utility), else its program's name. */
function kindOf(pid: number): string {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (!argv[0]) return "exited"; // a zombie: ended, not yet reaped by its parent
    const all = argv.join(" ");
    const type = /--type=(\S+)/.exec(all)?.[1];
    if (type)
      return type === "utility"
        ? `utility ${/--utility-sub-type=(\S+)/.exec(all)?.[1]?.split(".")[0] ?? ""}`.trim()
        : type;
    const name = (argv[0] ?? "?").split(/[ /]/).filter(Boolean);
    return /chromium|chrome/.test(argv[0] ?? "") ? "browser" : (name[name.length - 1] ?? "?");
  } catch {
    return "?";
  }
}

/**
 * CPU seconds so far of a process tree, by kind of process (Chromium's browser, gpu-process,
 * renderer, zygote — whose count includes the renderers it has reaped —, node, ...).
 */
export function treeCpuByKind(rootPid: number): Map<string, number> {
  const out = new Map<string, number>();
  const table = processTable();
  if (!table) return out;
  const { cpu, children } = table;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    if (cpu.has(pid)) {
      const kind = kindOf(pid);
      out.set(kind, (out.get(kind) ?? 0) + cpu.get(pid)!);
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** CPU seconds so far of each thread of a process, busiest first (`/proc/PID/task`); empty when it cannot be read. */
export function threadCpu(pid: number): Array<{ tid: number; name: string; cpu: number }> {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: Array<{ tid: number; name: string; cpu: number }> = [];
  for (const tid of tids) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = text.slice(text.indexOf("(") + 1, text.lastIndexOf(")"));
      const f = text
        .slice(text.lastIndexOf(")") + 2)
        .split(" ")
        .map(Number);
      out.push({ tid: Number(tid), name, cpu: (f[11]! + f[12]!) / TICKS_PER_SECOND });
    } catch {
      // the thread ended
    }
  }
  return out.sort((a, b) => b.cpu - a.cpu);
}

/**
 * CPU seconds a Node process spent between two `threadCpu` readings on its main thread (tid = pid),
 * its busiest other thread (a worker thread such as the embedded database's) and the rest.
 */
export function threadCpuSplit(
  pid: number,
  before: ReturnType<typeof threadCpu>,
  after: ReturnType<typeof threadCpu>,
): { main: number; busiestOther: number; rest: number } {
  const was = new Map(before.map((t) => [t.tid, t.cpu]));
  const used = after.map((t) => ({ tid: t.tid, cpu: t.cpu - (was.get(t.tid) ?? 0) })).sort((a, b) => b.cpu - a.cpu);
  const main = used.find((t) => t.tid === pid)?.cpu ?? 0;
  const others = used.filter((t) => t.tid !== pid);
  const busiestOther = others[0]?.cpu ?? 0;
  return { main, busiestOther, rest: others.slice(1).reduce((sum, t) => sum + t.cpu, 0) };
}
