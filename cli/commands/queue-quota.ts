import type { Command } from "commander";
import { parseQuota, setQuota } from "../../lib/label/quota";
import { withDatabase } from "../database";
import { action, fail } from "../errors";

// `colbench queues quota`: the most non-gold pairs one person labels in a queue (lib/label/quota.ts).

export function registerQueueQuota(queues: Command): void {
  queues
    .command("quota")
    .description(
      "cap the pairs one person labels in a queue (a person at it is handed no more; their labels stay); 'none' lifts the cap",
    )
    .argument("<queue>")
    .argument("<pairs>", "a whole number of pairs, or none")
    .action(
      action(async (nameOrId: string, pairs: string) => {
        // A bad number is refused before the database is opened (action() prints the error).
        const quota = parseQuota(pairs, "<pairs>");
        const done = await withDatabase("queues quota", async (store) => {
          const queue = await store.queues.find(nameOrId);
          if (!queue) fail(`no queue named "${nameOrId}" (see \`colbench queues list\`)`);
          return setQuota(store, queue, quota);
        });
        console.log(JSON.stringify(done));
      }),
    );
}
