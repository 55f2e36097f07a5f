import type { Database } from "./open";

// One database per process. `colbench serve` opens it (migrations, PGlite ownership or its owner's socket)
// before Next.js handles a request and hands it over here, so the web bundle never loads the
// database engines itself.
const slot = Symbol.for("colbench.database");
type Holder = { [slot]?: Database };
const holder = globalThis as Holder;

export function setDatabase(db: Database): void {
  holder[slot] = db;
}

export async function getDatabase(): Promise<Database> {
  const db = holder[slot];
  if (!db) throw new Error("no database in this process: start the studio with `npx colbench serve` (add --dev for hot reload)");
  return db;
}

export async function getPrisma() {
  return (await getDatabase()).prisma;
}
