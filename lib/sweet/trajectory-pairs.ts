import type { Benchmark } from "../colbench/tasks";

// Trajectory-level preference pairs from best-of-k samples, by the published scripts' rules.

export interface Sample<Id> {
  /** Identifies the task (all samples of one task share it). */
  task: string | number;
  /** The sample's place among the task's k samples (0-based). */
  sample: number;
  reward: number;
  id: Id;
}

export interface TrajectoryPair<Id> {
  task: string | number;
  chosen: Id;
  rejected: Id;
}

/** Frontend: two samples make a pair when their similarities differ by at least this. */
export const FRONTEND_MIN_GAP = 0.1;

function byTask<Id>(samples: Sample<Id>[]): Map<string | number, Sample<Id>[]> {
  const tasks = new Map<string | number, Sample<Id>[]>();
  for (const s of samples) {
    const list = tasks.get(s.task) ?? [];
    list.push(s);
    tasks.set(s.task, list);
  }
  for (const list of tasks.values()) list.sort((a, b) => a.sample - b.sample);
  return tasks;
}

/**
 * Backend: for each task whose best reward is at least 1, the first sample with the best reward is
 * chosen against every sample below it (samples tied with the best are left out). Frontend: every
 * two samples j < j2 whose rewards differ by at least 0.1, the higher chosen. A NaN reward never
 * enters a pair.
 */
export function trajectoryPairs<Id>(benchmark: Benchmark, samples: Sample<Id>[]): TrajectoryPair<Id>[] {
  const pairs: TrajectoryPair<Id>[] = [];
  for (const [task, all] of byTask(samples.filter((s) => Number.isFinite(s.reward)))) {
    if (benchmark === "backend") {
      const best = Math.max(...all.map((s) => s.reward));
      if (best < 1) continue;
      const chosen = all.find((s) => s.reward === best)!;
      for (const s of all) if (s.reward < best) pairs.push({ task, chosen: chosen.id, rejected: s.id });
    } else {
      for (let j = 0; j < all.length; j++) {
        for (let j2 = j + 1; j2 < all.length; j2++) {
          const a = all[j]!;
          const b = all[j2]!;
          if (Math.abs(a.reward - b.reward) < FRONTEND_MIN_GAP) continue;
          pairs.push(a.reward > b.reward ? { task, chosen: a.id, rejected: b.id } : { task, chosen: b.id, rejected: a.id });
        }
      }
    }
  }
  return pairs;
}

/**
 * The benchmark's own best-of-k file layout: k blocks of the same task list, so line n holds
 * sample floor(n / tasks) of task n mod tasks.
 */
export function bestOfKPlace(line: number, tasks: number): { task: number; sample: number } {
  return { task: line % tasks, sample: Math.floor(line / tasks) };
}

export function bestOfKLine(task: number, sample: number, tasks: number): number {
  return tasks * sample + task;
}
