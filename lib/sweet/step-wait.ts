import type { PipelineStep } from "../events";
import type { StepWait } from "../events/types";
import type { Outage } from "../models/breaker";

// What a SWEET-RL step says while its model server is down: said at the first failure, while the
// step retries, so a critic answering HTTP 500 is not a silent ten minutes. Light enough for the
// panel (a client component) and the CLI alike.

/** A server's outage as a step's event carries it. */
export function stepWait(outage: Outage, giveUpMs: number): StepWait {
  return {
    server: outage.server,
    cause: outage.cause,
    since: new Date(outage.since).toISOString(),
    giveUpAt: new Date(outage.since + giveUpMs).toISOString(),
  };
}

/** The line a person reads while a step waits for its server, on the panel and in the CLI. */
export function stepWaitLine(step: PipelineStep, wait: StepWait): string {
  const time = (iso: string) => `${iso.slice(11, 19)} UTC`;
  const role = step === "candidates" ? "policy" : "critic";
  return `the ${role} server ${wait.server} is not answering (${wait.cause}) since ${time(wait.since)}; the step keeps retrying and gives up at ${time(wait.giveUpAt)}`;
}
