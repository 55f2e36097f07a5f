import PgBoss from "pg-boss";
import { JOB_KINDS, queueName, type JobData, type JobKind } from "./kinds";

// The run queue: pg-boss on the run's own PostgreSQL (its tables live in the `pgboss` schema).
// pg-boss hands each job to one fetcher (SKIP LOCKED), retries failed ones and fails those active
// past their expiry. A worker that dies is noticed sooner than that by its silent heartbeat
// (lib/queue/worker.ts), which hands its jobs back with `handBack`.

export interface QueueOptions {
  /** How long a job may stay active before pg-boss itself gives it to another worker (a backstop). */
  expireSeconds?: number;
  /** Connections this process opens to the queue. */
  max?: number;
}

export interface FetchedJob<K extends JobKind = JobKind> {
  kind: K;
  id: string;
  data: JobData[K];
  /** Which fetch of the job this is (pg-boss's retry count): with the id, the fence of writes made for it. */
  attempt: number;
}

/** Attempts before a job is given up: hand-backs count as attempts, so keep it generous. */
const RETRY_LIMIT = 100;
const DEFAULT_EXPIRE_SECONDS = 12 * 3600;

export class JobQueue {
  private constructor(
    private readonly boss: PgBoss,
    private readonly expireSeconds: number,
  ) {}

  /** Connects to the queue at a postgresql:// URL, creating its schema and queues the first time. */
  static async open(url: string, options: QueueOptions = {}): Promise<JobQueue> {
    const boss = new PgBoss({
      connectionString: url,
      max: options.max ?? 4,
      schedule: false,
      application_name: "colbench-queue",
    });
    // Connection errors are retried by pg-boss; an unhandled 'error' event would end the process.
    boss.on("error", (error) => process.stderr.write(`colbench queue: ${error.message}\n`));
    await boss.start();
    for (const kind of JOB_KINDS) {
      if (!(await boss.getQueue(queueName(kind)))) await boss.createQueue(queueName(kind)).catch(() => {});
    }
    return new JobQueue(boss, options.expireSeconds ?? DEFAULT_EXPIRE_SECONDS);
  }

  async enqueue<K extends JobKind>(kind: K, jobs: Array<JobData[K]>): Promise<void> {
    const name = queueName(kind);
    for (let i = 0; i < jobs.length; i += 1000) {
      await this.boss.insert(
        jobs.slice(i, i + 1000).map((data) => ({
          name,
          data: data,
          retryLimit: RETRY_LIMIT,
          retryDelay: 0,
          expireInSeconds: this.expireSeconds,
        })),
      );
    }
  }

  /** Takes up to `n` jobs of a kind; each is this caller's until completed or handed back. */
  async fetch<K extends JobKind>(kind: K, n: number): Promise<Array<FetchedJob<K>>> {
    const jobs = await this.boss.fetch<JobData[K]>(queueName(kind), { batchSize: n, includeMetadata: true });
    return jobs.map((job) => ({ kind, id: job.id, data: job.data, attempt: job.retryCount }));
  }

  async complete(kind: JobKind, ids: string[]): Promise<void> {
    if (ids.length) await this.boss.complete(queueName(kind), ids);
  }

  /** Gives jobs back to the queue at once (a worker stopping, or one found dead): another takes them. */
  async handBack(kind: JobKind, ids: string[]): Promise<void> {
    if (ids.length) await this.boss.fail(queueName(kind), ids);
  }

  /** Jobs of a kind waiting to be taken. */
  async depth(kind: JobKind): Promise<number> {
    return this.boss.getQueueSize(queueName(kind));
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true });
  }
}
