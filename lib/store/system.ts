import type { PrismaClient } from "../db/generated/client";
import { isHuman, isLocal, runConfigBaseSchema } from "../colbench/run-config";

// What `colbench doctor` and the System page read about the database itself.

export interface DatabaseCounts {
  tasks: number;
  runs: number;
  episodes: number;
  turns: number;
}

export async function databaseCounts(prisma: PrismaClient): Promise<DatabaseCounts> {
  const [tasks, runs, episodes, turns] = await Promise.all([
    prisma.task.count(),
    prisma.run.count(),
    prisma.episode.count(),
    prisma.turn.count(),
  ]);
  return { tasks, runs, episodes, turns };
}

/** Asks the database something: opening does not connect, and a failure here is the connection's own. */
export async function pingDatabase(prisma: PrismaClient): Promise<void> {
  await prisma.$queryRawUnsafe("SELECT 1");
}

/** Whether the connected user may create tables in its schema (pending migrations need it on a server). */
export async function createPrivilege(prisma: PrismaClient): Promise<{ may: boolean; who: string; schema: string }> {
  const rows = await prisma.$queryRawUnsafe<Array<{ may: boolean; who: string; schema: string }>>(
    `SELECT has_schema_privilege(current_schema(), 'CREATE') AS may, current_user AS who, current_schema() AS schema`,
  );
  return rows[0]!;
}

/** Migrations the database lists as finished (none when it was never migrated). */
export async function recordedMigrations(prisma: PrismaClient): Promise<string[]> {
  try {
    const rows = await prisma.$queryRawUnsafe<Array<{ migration_name: string }>>(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
    );
    return rows.map((row) => row.migration_name);
  } catch {
    return [];
  }
}

export interface RunServer {
  baseUrl: string;
  /** Models the saved runs ask this server for. */
  models: string[];
  /** The environment variable holding its key, when a run names one. */
  apiKeyEnv?: string;
  /** Names of the runs that use it (the first few). */
  runs: string[];
}

/** Every model server named in the saved runs' configurations (agent and simulator sides). */
export async function runServers(prisma: PrismaClient): Promise<RunServer[]> {
  const runs = await prisma.run.findMany({ select: { name: true, config: true }, orderBy: { id: "desc" } });
  const servers = new Map<string, RunServer>();
  for (const run of runs) {
    // Only the sides are read: the common fields, whatever the run's benchmark.
    const parsed = runConfigBaseSchema.safeParse(run.config);
    if (!parsed.success) continue;
    for (const side of [parsed.data.agent, parsed.data.simulator]) {
      if (isHuman(side) || isLocal(side)) continue;
      const server = servers.get(side.baseUrl) ?? {
        baseUrl: side.baseUrl,
        models: [],
        runs: [],
        apiKeyEnv: side.apiKeyEnv,
      };
      if (!server.models.includes(side.model)) server.models.push(side.model);
      if (!server.runs.includes(run.name) && server.runs.length < 3) server.runs.push(run.name);
      servers.set(side.baseUrl, server);
    }
  }
  return [...servers.values()];
}
