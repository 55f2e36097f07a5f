import { benchmarkOf, type Benchmark } from "../benchmarks";

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
 * Each task's pairs by the benchmark's published rule (its module's pairRule; backend: the first
 * best sample, reward 1, over every sample below it; frontend: every two samples j < j2 whose
 * similarities differ by at least 0.1, the higher chosen), tasks in the order they first appear,
 * samples in sample order. A NaN reward never enters a pair.
 */
export function trajectoryPairs<Id>(benchmark: Benchmark, samples: Sample<Id>[]): TrajectoryPair<Id>[] {
  const rule = benchmarkOf(benchmark).pairRule;
  const pairs: TrajectoryPair<Id>[] = [];
  for (const [task, all] of byTask(samples.filter((s) => Number.isFinite(s.reward)))) {
    for (const [chosen, rejected] of rule.pairs(all.map((s) => s.reward)))
      pairs.push({ task, chosen: all[chosen]!.id, rejected: all[rejected]!.id });
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
