import type { Database } from "./open";
import { processSlot } from "../process-slot";

// One database per process. `colbench serve` opens it (migrations, PGlite ownership or its owner's socket)
// before Next.js handles a request and hands it over here, so the web bundle never loads the
// database engines itself.
const slot = processSlot<Database>("colbench.database");

export function setDatabase(db: Database): void {
  slot.set(db);
}

export async function getDatabase(): Promise<Database> {
  return slot.need(
    "no database in this process: start the studio with `npx colbench serve` (add --dev for hot reload)",
  );
}

export async function getPrisma() {
  return (await getDatabase()).prisma;
}
