// When whoever reads the process's output goes away (a pipe's reader that exited, `colbench export
// RUN | head`, a terminal or test harness that died), every later write to stdout or stderr fails
// with EPIPE. Unhandled, each failure is an uncaught exception; the studio's Next.js logs those to
// stderr, whose write fails the same way, and so on: a studio found this way ran one core flat out
// for as long as it lived, ignoring SIGTERM. The first failure ends the command instead, as SIGPIPE
// would; the failures after it are dropped.

let onGone: () => void = () => process.exit(0);
let gone = false;

/** What to do once the output's reader has gone (default: exit 0); `colbench serve` closes its database first. */
export function whenOutputGone(action: () => void): void {
  onGone = action;
}

function failed(error: NodeJS.ErrnoException): void {
  if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
  if (gone) return;
  gone = true;
  onGone();
}

/** Installs the handler on stdout and stderr (once, at the CLI's start). */
export function watchOutput(): void {
  process.stdout.on("error", failed);
  process.stderr.on("error", failed);
}
