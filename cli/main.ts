import { Command } from "commander";
import { watchOutput } from "./output-gone";
import { modulesFor } from "./commands";

// A reader that closes the pipe early (`colbench export RUN | head`) has read all it wants: end
// quietly, as a command killed by SIGPIPE would (cli/output-gone.ts).
watchOutput();

const program = new Command()
  .name("colbench")
  .description("ColBench Studio: run, score, replay and label ColBench episodes")
  .showHelpAfterError()
  .enablePositionalOptions();

for (const load of modulesFor(process.argv)) (await load()).register(program);

await program.parseAsync(process.argv);
// Commands are done when their action resolves (`serve` never resolves); libraries such as the
// migration engine can leave timers behind that would hold the process open for seconds.
process.exit(process.exitCode ?? 0);
