import type { Command } from "commander";
import { addPairs, type QueueSource } from "../../lib/label/build";
import { setTraining } from "../../lib/label/manage";
import type { Store } from "../../lib/store";
import type { QueueRow } from "../../lib/store/queues";
import { withDatabase } from "../database";
import { action } from "../errors";

// `colbench queues add-pairs` and `queues training`: more pairs for a queue that exists (found and
// read as `queues create` finds its source), and its training mode.

interface AddPairsOptions {
  pairs?: string;
  candidates?: string;
  includeOwn?: boolean;
  runs?: string;
  gold: number;
  goldGap: number;
  limit?: number;
  seed: number;
}

type SourceOf = (opts: {
  pairs?: string;
  candidates?: string;
  includeOwn?: boolean;
  runs?: string;
  kind: "trajectory" | "turn";
}) => QueueSource;

export function registerQueuePairs(
  queues: Command,
  queueOf: (store: Store, nameOrId: string) => Promise<QueueRow>,
  sourceOf: SourceOf,
): void {
  queues
    .command("add-pairs")
    .description("add a run's pairs to a queue (same kind and benchmark; pairs it holds already are left out)")
    .argument("<queue>")
    .option("--pairs <run>", "the run's stored SWEET-RL pairs (of the queue's kind)")
    .option("--candidates <run>", "each agent turn's best-ranked candidate against its worst")
    .option("--include-own", "with --candidates: count the turn's own output among them")
    .option("--runs <a,b>", "run A against run B, task by task")
    .option("--gold <n>", "gold pairs among the new ones (rewards at least --gold-gap apart)", (v) => Number(v), 0)
    .option("--gold-gap <g>", "the reward gap that makes an answer known", (v) => Number(v), 0.5)
    .option("--limit <n>", "add at most this many pairs", (v) => Number(v))
    .option("--seed <s>", "order and sides of the pairs", (v) => Number(v), 42)
    .action(
      action(async (nameOrId: string, opts: AddPairsOptions) => {
        const done = await withDatabase("queues add-pairs", async (store) => {
          const queue = await queueOf(store, nameOrId);
          return addPairs(store, queue, {
            source: sourceOf({ ...opts, kind: queue.kind }),
            gold: opts.gold,
            goldGap: opts.goldGap,
            limit: opts.limit,
            seed: opts.seed,
          });
        });
        console.log(JSON.stringify(done));
      }),
    );
  queues
    .command("training")
    .description(
      "training mode: after a gold pair is labelled, the person sees whether they matched its answer and why",
    )
    .argument("<queue>")
    .option("--off", "turn it off")
    .action(
      action(async (nameOrId: string, opts: { off?: boolean }) => {
        const done = await withDatabase("queues training", async (store) =>
          setTraining(store, await queueOf(store, nameOrId), !opts.off),
        );
        console.log(JSON.stringify(done));
      }),
    );
}
