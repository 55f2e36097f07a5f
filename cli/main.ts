import { Command } from "commander";
import * as serve from "./commands/serve";
import * as importCmd from "./commands/import";
import * as db from "./commands/db";
import * as tasks from "./commands/tasks";
import * as run from "./commands/run";
import * as importTrajectories from "./commands/import-trajectories";
import * as runs from "./commands/runs";
import * as score from "./commands/score";
import * as render from "./commands/render";
import * as compareRuns from "./commands/compare-runs";
import * as importAdvantages from "./commands/import-advantages";
import * as users from "./commands/users";
import * as sweet from "./commands/sweet";
import * as doctor from "./commands/doctor";
import * as label from "./commands/label";
import * as models from "./commands/models";
import * as worker from "./commands/worker";
import { watchOutput } from "./output-gone";

// A reader that closes the pipe early (`colbench export RUN | head`) has read all it wants: end
// quietly, as a command killed by SIGPIPE would (cli/output-gone.ts).
watchOutput();

const program = new Command()
  .name("colbench")
  .description("ColBench Studio: run, score, replay and label ColBench episodes")
  .showHelpAfterError()
  .enablePositionalOptions();

for (const command of [
  serve,
  doctor,
  importCmd,
  db,
  tasks,
  run,
  runs,
  importTrajectories,
  importAdvantages,
  score,
  render,
  compareRuns,
  sweet,
  models,
  users,
  label,
  worker,
])
  command.register(program);

await program.parseAsync(process.argv);
// Commands are done when their action resolves (`serve` never resolves); libraries such as the
// migration engine can leave timers behind that would hold the process open for seconds.
process.exit(process.exitCode ?? 0);
