import type { Command } from "commander";

// Which module registers which top-level command, so that a command line loads only its own.

export interface CommandModule {
  register(program: Command): void;
}

/**
 * Each command module and the top-level words it registers. A command loads only its own module:
 * loading all of them (the GPU, the SWEET-RL pipeline, the labelling desk...) cost every start
 * 0.5-1.5 s more, which `colbench db backup` paid beside pg_dump and the CLI tests paid at each
 * spawn. cli/commands.test.ts checks this table against what each module registers.
 */
export const COMMAND_MODULES: Array<[words: string[], load: () => Promise<CommandModule>]> = [
  [["serve"], () => import("./commands/serve")],
  [["doctor"], () => import("./commands/doctor")],
  [["import"], () => import("./commands/import")],
  [["db"], () => import("./commands/db")],
  [["tasks"], () => import("./commands/tasks")],
  [["run", "resume", "rescore", "export"], () => import("./commands/run")],
  [["runs"], () => import("./commands/runs")],
  [["import-trajectories"], () => import("./commands/import-trajectories")],
  [["import-advantages"], () => import("./commands/import-advantages")],
  [["score"], () => import("./commands/score")],
  [["render"], () => import("./commands/render")],
  [["compare-runs"], () => import("./commands/compare-runs")],
  [["pairs", "candidates", "rank", "turn-pairs", "lineage"], () => import("./commands/sweet")],
  [["models"], () => import("./commands/models")],
  [["users"], () => import("./commands/users")],
  [["queues", "labels"], () => import("./commands/label")],
  [["worker"], () => import("./commands/worker")],
];

/** The modules a command line needs: its command's own, or every one (help, a typo to suggest for, no command). */
export function modulesFor(argv: string[]): Array<() => Promise<CommandModule>> {
  const word = argv[2];
  const own = COMMAND_MODULES.find(([words]) => word !== undefined && words.includes(word));
  return own ? [own[1]] : COMMAND_MODULES.map(([, load]) => load);
}
