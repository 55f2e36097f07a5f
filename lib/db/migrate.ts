import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import { migrationNames, readMigrations, schemaPath } from "./migration-files";

export { migrationNames, migrationsDir, schemaPath } from "./migration-files";

// The Prisma CLI downloads a native schema engine for every migrate command, which cannot
// work offline; the WebAssembly build of the same engine runs through our driver adapter
// and keeps `_prisma_migrations` exactly as `prisma migrate deploy` would.

const noFilters = { externalTables: [], externalEnums: [] };

type EngineModule = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");
let engineModule: Promise<EngineModule> | undefined;

// The package's entry imports its .wasm as an ES module, which Node 20 cannot load;
// instantiate the same bytes against its JS glue by hand instead.
function loadEngine(): Promise<EngineModule> {
  engineModule ??= (async () => {
    const glue = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const require = createRequire(import.meta.url);
    const wasmPath = path.join(
      path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")),
      "schema_engine_bg.wasm",
    );
    const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), {
      "./schema_engine_bg.js": glue as unknown as WebAssembly.ModuleImports,
    });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })();
  return engineModule;
}

type Adapter = Awaited<ReturnType<SqlMigrationAwareDriverAdapterFactory["connect"]>>;

// @prisma/adapter-pg runs a migration by splitting it on every ";", which cuts a dollar-quoted
// function body (the turn-totals trigger) apart. PostgreSQL takes a whole script as one simple
// query, and runs it as one implicit transaction, so that adapter's scripts go to its pool whole.
// The engine's connections are kept in `opened` for the caller to close: the engine takes a
// session-level advisory lock, and its unlock can reach another connection of the pool, so the
// lock stays held by an idle connection (for the pool's 10 s idle timeout) and the next migration
// of that database, a restore's among them, waits for it.
function wholeScripts(
  factory: SqlMigrationAwareDriverAdapterFactory,
  opened: Adapter[],
): SqlMigrationAwareDriverAdapterFactory {
  if (factory.adapterName !== "@prisma/adapter-pg") return factory;
  const whole = (adapter: Adapter): Adapter => {
    const pool = (adapter as unknown as { client?: { query(sql: string): Promise<unknown> } }).client;
    if (!pool)
      throw new Error(
        "@prisma/adapter-pg no longer keeps its pool as `client`: migrations with function bodies need another way to run whole",
      );
    adapter.executeScript = async (script: string) => {
      await pool.query(script);
    };
    return adapter;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const adapter = whole(await factory.connect());
      opened.push(adapter);
      return adapter;
    },
    connectToShadowDb: async () => whole(await factory.connectToShadowDb()),
  };
}

async function withEngine<T>(
  factory: SqlMigrationAwareDriverAdapterFactory,
  use: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const schema = fs.readFileSync(schemaPath, "utf8");
  const log = (message: string) => {
    if (process.env.COLBENCH_DEBUG_MIGRATIONS) process.stderr.write(`[schema-engine] ${message}\n`);
  };
  const { SchemaEngine } = await loadEngine();
  const opened: Adapter[] = [];
  const engine = await SchemaEngine.new(
    { datamodels: [[schemaPath, schema]] },
    log,
    bindMigrationAwareSqlAdapterFactory(wholeScripts(factory, opened)),
  );
  try {
    return await use(engine);
  } finally {
    engine.free();
    await Promise.all(opened.map((adapter) => adapter.dispose().catch(() => {})));
  }
}

/**
 * Applies every migration in prisma/migrations that the database lacks; returns their names.
 * `recorded` (names the database already lists as finished) lets the caller skip the engine,
 * which costs about a second to start and keeps a timer alive for seconds after it is freed.
 */
export async function applyMigrations(
  factory: SqlMigrationAwareDriverAdapterFactory,
  recorded?: readonly string[],
  /** Apply only these (a restore rebuilds the schema its backup was taken at, then loads, then upgrades). */
  only?: readonly string[],
): Promise<string[]> {
  const wanted = only ? migrationNames().filter((name) => only.includes(name)) : migrationNames();
  if (recorded && wanted.every((name) => recorded.includes(name))) return [];
  return withEngine(factory, async (engine) => {
    const all = readMigrations();
    const migrationsList = only
      ? { ...all, migrationDirectories: all.migrationDirectories.filter((dir) => only.includes(dir.path)) }
      : all;
    const result = await engine.applyMigrations({ migrationsList, filters: noFilters });
    return result.appliedMigrationNames;
  });
}

/** SQL that takes a database at the committed migrations to the current schema ("" when none is needed). */
export async function pendingSchemaSql(factory: SqlMigrationAwareDriverAdapterFactory): Promise<string> {
  return withEngine(factory, async (engine) => {
    const schema = fs.readFileSync(schemaPath, "utf8");
    const result = await engine.diff({
      from: { tag: "migrations", ...readMigrations() },
      to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    const sql = (result.stdout ?? "").trim();
    return /^-- This is an empty migration\.?$/.test(sql) ? "" : sql;
  });
}
