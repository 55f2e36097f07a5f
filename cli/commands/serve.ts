import fs from "node:fs";
import http from "node:http";
import { Command } from "commander";
import { openDatabase, type Database } from "../../lib/db/open";
import { setDatabase } from "../../lib/db/index";
import { updateLock } from "../../lib/db/lock";
import { gated } from "../../lib/access/http";
import { allowedHostsFrom, studioHostNames } from "../../lib/access/host";
import { missingRecordPath } from "../../lib/http/missing";
import { openEventBus, setEventBus } from "../../lib/events";
import { Seats, setSeats } from "../../lib/play/seats";
import { PipelineJobs, setPipelineJobs } from "../../lib/sweet/jobs";
import { OfficialImports, setOfficialImports } from "../../lib/official/jobs";
import { RunManager } from "../../lib/runs/manager";
import { loadRunConfig } from "../../lib/runs/runner";
import { isHuman } from "../../lib/colbench/run-config";
import { JobQueue } from "../../lib/queue/queue";
import { dequeueRun, enqueueRun, queueConfigured } from "../../lib/queue/enqueue";
import { setRunManager } from "../../lib/runs/active";
import { dataDir, projectRoot } from "../../lib/paths";
import { serveWeights } from "../../lib/gpu/node/served-weights";
import { setStudioTurnScorer } from "../../lib/gpu/live-service";
import { giveLiveServers } from "../../lib/sweet/live-servers";
import { openStore } from "../database";
import type { Store } from "../../lib/store";
import { parseEvery, scheduleBackups } from "../../lib/db/backup/service";
import { backupSettings } from "../../lib/db/backup/settings";
import { defaultRenderDir } from "../../lib/scoring/frontend/render-cache";
import { action, fail } from "../errors";
import { whenOutputGone } from "../output-gone";

/**
 * How long the studio keeps an idle connection open. A proxy that keeps idle connections to the
 * studio reuses them; if the studio's idle timeout is the shorter one, the proxy can send a
 * request down a connection the studio is closing at that moment and gets ECONNRESET (a 502 for
 * the browser, "Not stored" on a label). Node's default is 5 s; load balancers and proxies
 * commonly keep idle upstream connections up to 60 s (AWS ALB, nginx's keepalive_timeout), so
 * the studio outlasts them and the proxy is always the side that closes. A proxy set longer
 * (Caddy's own default is 2 min) must be set below this: deploy/Caddyfile does.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/**
 * Above the keep-alive: Node measures headersTimeout from the connection's last request, so a
 * shorter one could drop a kept connection's next request before the keep-alive ran out.
 */
export const HEADERS_TIMEOUT_MS = 66_000;

/** The studio's HTTP server, with the idle timeouts above. */
export function studioServer(handler: http.RequestListener): http.Server {
  const server = http.createServer(handler);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  return server;
}

export function register(program: Command): void {
  serveOptions(program.command("serve")).action(action(serveStudio));
}

interface ServeOptions {
  port: number;
  host: string;
  dev?: boolean;
  allowedHost: string[];
  trustProxy?: boolean;
  policyWeights?: string;
  criticWeights?: string;
  critic?: string;
  policy?: string;
  clipWeights?: string;
  backupEvery?: string;
  backupDir?: string;
  keep: number;
  backupRenders?: boolean;
}

function serveOptions(command: Command): Command {
  return command
    .description("start the studio (applies migrations and seeds sample tasks into an empty database)")
    .option("--port <port>", "port to listen on", (v) => Number.parseInt(v, 10), Number(process.env.PORT ?? 3000))
    .option("--host <host>", "address to listen on (0.0.0.0 to let annotators on other machines in)", "127.0.0.1")
    .option("--dev", "run Next.js in development mode (hot reload)")
    .option(
      "--allowed-host <name>",
      "another name the studio answers to, e.g. a reverse proxy's (repeatable; also COLBENCH_ALLOWED_HOSTS, comma-separated); any other Host is refused with 421",
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option(
      "--trust-proxy",
      "believe X-Forwarded-Proto from the reverse proxy in front (cookies get Secure behind HTTPS); also COLBENCH_TRUST_PROXY=1",
    )
    .option(
      "--policy-weights <dir>",
      "a policy model folder (Hugging Face: config.json, tokenizer.json, safetensors) that replays can score turns with in the browser (WebGPU); also COLBENCH_POLICY_WEIGHTS",
    )
    .option("--critic-weights <dir>", "the critic model folder for the same (also COLBENCH_CRITIC_WEIGHTS)")
    .option(
      "--critic <url#model>",
      "with --policy, and no weights served: the critic server live advantages are scored with (completions with echo; also COLBENCH_LIVE_CRITIC); default: the one a run's latest rank record names",
    )
    .option(
      "--policy <url#model>",
      "the policy server for the same (also COLBENCH_LIVE_POLICY); default: the one a run's lineage names",
    )
    .option(
      "--backup-every <duration>",
      "take a backup of the database every so often (6h, 30m, 1d); see --backup-dir and --keep",
    )
    .option(
      "--backup-dir <dir>",
      "where backups go, scheduled ones and the System page's (default <data dir>/backups; also COLBENCH_BACKUP_DIR)",
    )
    .option(
      "--keep <n>",
      "how many scheduled backups to keep in --backup-dir (the oldest go)",
      (v) => Number.parseInt(v, 10),
      14,
    )
    .option("--backup-renders", "include the render cache in backups")
    .option(
      "--clip-weights <dir>",
      "a CLIP checkpoint folder (config.json, model.safetensors) the collaborator seat embeds pages with in the browser (WebGPU) to show the live similarity to the target; also COLBENCH_CLIP_WEIGHTS, else $COLBENCH_CLIP when it is a folder",
    );
}

/** `colbench serve`: the database and the process's services, then Next.js behind the gate, until a signal. */
async function serveStudio(opts: ServeOptions): Promise<void> {
  const backupEveryMs = checkServeOptions(opts);
  const backups = settleEnvironment(opts);
  // The first process on the embedded database owns it and serves it to the others (CLI
  // commands beside the studio); a studio started after one of them is its client.
  const db = await openDatabase({ command: "colbench serve" });
  const store = await openStore(db);
  const seeded = await store.tasks.seedSamplesIfEmpty();
  setDatabase(db);
  const services = await startServices(db, store);
  const scheduled = backupEveryMs
    ? scheduleBackups(db, {
        everyMs: backupEveryMs,
        dir: backups.dir,
        keep: backups.keep,
        renders: backups.renders,
        dataDir: dataDir(),
      })
    : null;
  const { app, server } = await startNext(opts, store);
  stopOnSignals(server, async () => {
    await closeServices(services);
    // A backup being written finishes before the database closes under it.
    await scheduled?.stop().catch(() => {});
    await app.close().catch(() => {});
    await services.bus.close().catch(() => {});
    await db.close();
  });
  server.on("error", (error) => {
    void db.close().finally(() => fail(`cannot listen on ${opts.host}:${opts.port}: ${error.message}`));
  });
  server.listen(opts.port, opts.host, () => {
    if (db.kind === "pglite") updateLock(`${db.location}.lock`, { port: opts.port });
    const seededCount = seeded.reduce((n, s) => n + s.inserted, 0);
    console.log(
      servingLine(opts, db, seededCount) +
        (backupEveryMs ? `; a backup every ${opts.backupEvery} into ${backups.dir}, keeping ${backups.keep}` : ""),
    );
    announceReady(opts);
  });
  // Serve until a signal stops the process.
  await new Promise<never>(() => {});
}

/** Fails on a bad --port or --keep; the interval of --backup-every in milliseconds, if given. */
function checkServeOptions(opts: ServeOptions): number | undefined {
  if (!Number.isInteger(opts.port) || opts.port <= 0 || opts.port > 65535) fail(`--port: not a port: ${opts.port}`);
  if (!Number.isInteger(opts.keep) || opts.keep < 1) fail(`--keep: not a count of backups: ${opts.keep}`);
  try {
    // Without served weights, live advantages come from model servers: these, else the ones a run's lineage names.
    giveLiveServers({ critic: opts.critic, policy: opts.policy });
    return opts.backupEvery ? parseEvery(opts.backupEvery) : undefined;
  } catch (error) {
    fail((error as Error).message);
  }
}

/** What route code reads from the environment and the working directory; the backup settings. */
function settleEnvironment(opts: ServeOptions) {
  // The System page's "Back up now" reads these from the environment, as route code does.
  const backups = backupSettings({
    dir: opts.backupDir,
    keep: opts.keep,
    renders: opts.backupRenders ? defaultRenderDir() : undefined,
  });
  // Route handlers read the served folders from the environment (lib/gpu/node/served-weights.ts).
  if (opts.policyWeights) serveWeights("policy", opts.policyWeights, "--policy-weights");
  if (opts.criticWeights) serveWeights("critic", opts.criticWeights, "--critic-weights");
  if (opts.clipWeights) serveWeights("clip", opts.clipWeights, "--clip-weights");
  // Live advantages the studio computes itself (the agent seat's coach mode); the models load on the first turn.
  setStudioTurnScorer({
    score: (store, episodeId, turns) =>
      import("../../lib/gpu/node/live-scorer").then((m) => m.studioTurnScorer.score(store, episodeId, turns)),
  });
  // Bundled route code cannot find the checkout from its own location; pin the data folder.
  process.env.COLBENCH_DATA = dataDir();
  // Route code finds vendored files (Tailwind 2, Pyodide) under node_modules from the working directory.
  process.chdir(projectRoot);
  return backups;
}

/** The process's one bus, seats, run manager, pipeline jobs and official imports, set where route code finds them. */
async function startServices(db: Database, store: Store) {
  // Live views hear of turns stored by any process on the same database through this bus.
  const bus = await openEventBus(db.events);
  setEventBus(bus);
  const seats = new Seats(bus);
  setSeats(seats);
  // On a PostgreSQL server, runs go on the run queue for `colbench worker`s (any machine);
  // runs with people in their seats are still played here.
  const queue = queueConfigured(db) ? await JobQueue.open(db.url) : null;
  const enqueue = queue
    ? async (runId: number) => {
        const config = await loadRunConfig(store, runId);
        if (isHuman(config.agent) || isHuman(config.simulator)) return false;
        await enqueueRun(store, queue, runId);
        return true;
      }
    : undefined;
  const runs = new RunManager(
    store,
    bus,
    seats.take,
    enqueue,
    queue ? async (runId) => void (await dequeueRun(store, runId)) : undefined,
  );
  setRunManager(runs);
  const pipeline = new PipelineJobs(store, bus);
  setPipelineJobs(pipeline);
  const imports = new OfficialImports(store);
  setOfficialImports(imports);
  return { bus, queue, runs, pipeline, imports };
}

async function closeServices(services: Awaited<ReturnType<typeof startServices>>): Promise<void> {
  // Runs stop between turns; `colbench resume` or the Resume button continues them.
  await services.runs.close().catch(() => {});
  await services.queue?.close().catch(() => {});
  await services.pipeline.close().catch(() => {});
  await services.imports.close().catch(() => {});
}

/** Next.js prepared, and the studio's server: the gate (hosts, sign-in, local mode) in front of its handler. */
async function startNext(opts: ServeOptions, store: Store) {
  const { default: next } = await import("next");
  const app = next({ dev: Boolean(opts.dev), dir: projectRoot, hostname: opts.host, port: opts.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  // Local mode: listening on loopback with no user defined, the person at the machine is admin.
  const loopback = ["127.0.0.1", "::1", "localhost"].includes(opts.host);
  // The names it answers to, in every mode: a foreign Host (DNS rebinding) gets 421 before anything else.
  const hosts = studioHostNames({ bound: opts.host, extra: allowedHostsFrom(opts.allowedHost) });
  const trustProxy = Boolean(opts.trustProxy) || /^(1|true|yes)$/i.test(process.env.COLBENCH_TRUST_PROXY ?? "");
  const server = studioServer(
    gated(store, { loopback, hosts, trustProxy, dev: Boolean(opts.dev) }, async (req, res) => {
      // A detail page of a record that does not exist goes to the server-rendered not-found page.
      const missing = await missingRecordPath(store, req.method ?? "GET", req.url ?? "/").catch(() => null);
      if (missing) req.url = missing;
      return handle(req, res);
    }),
  );
  return { app, server };
}

/** On SIGINT, SIGTERM or a vanished output reader: stop taking requests, `close` the rest, exit. Once. */
function stopOnSignals(server: http.Server, close: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`colbench serve: ${signal}, closing the database\n`);
    server.close();
    server.closeAllConnections();
    await close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  // Nobody reads the studio's output any more: it stops as on SIGTERM, its database closed.
  whenOutputGone(() => void stop("its output's reader went away"));
}

/**
 * A first start's background installs (scripts/setup-later.sh) wait until the studio serves, so that
 * their disk and CPU do not slow its start: they leave an empty file at COLBENCH_READY_FILE, which
 * this fills with the address. Nothing is created when the file is not there.
 */
function announceReady(opts: ServeOptions): void {
  const file = process.env.COLBENCH_READY_FILE;
  if (!file) return;
  try {
    fs.writeFileSync(file, `http://${opts.host}:${opts.port}\n`, { flag: "r+" });
  } catch {
    // No installs are waiting.
  }
}

/** "ColBench Studio on http://…  (database: …)": where it serves, its database, what was migrated and seeded. */
function servingLine(opts: ServeOptions, db: Database, seededCount: number): string {
  const where = opts.host === "0.0.0.0" ? "localhost" : opts.host;
  const owner = db.role === "client" ? db.owner() : undefined;
  // Started by `npm run studio`: say how long it took from there to serving.
  const startedAt = Number(process.env.COLBENCH_STARTED_AT);
  const took =
    Number.isFinite(startedAt) && startedAt > 0 ? `, ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s` : "";
  return (
    `ColBench Studio on http://${where}:${opts.port}${took}  (database: ${db.kind} ${db.location}` +
    (owner ? `, through the socket of process ${owner.pid} (${owner.command})` : "") +
    (db.applied.length ? `, migrated: ${db.applied.join(", ")}` : "") +
    (seededCount ? `, seeded ${seededCount} sample tasks` : "") +
    ")"
  );
}
