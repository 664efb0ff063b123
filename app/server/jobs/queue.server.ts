import { fromPglite, type JobResult, PgBoss, type QueuePolicy } from "pg-boss";
import type { DatabaseHandle } from "../db/client.server";
import { getLog } from "../log.server";

/** A named job with its handler; areas add theirs to the list the runtime starts. */
export type JobDefinition<T extends object = object> = {
  name: string;
  retryLimit?: number;
  retryDelay?: number;
  /**
   * pg-boss's queue policy. Housekeeping jobs use `stately` (at most one waiting and one
   * running across every instance), so runs never pile up or overlap.
   */
  policy?: QueuePolicy;
  /**
   * How long a run may take before pg-boss takes it for lost and tries it again (its default is
   * 15 minutes). A server killed mid-run leaves its job active until then, so short jobs say so.
   */
  expireInSeconds?: number;
  /** A cron expression (UTC): the job is also sent on this schedule, once per tick for all instances. */
  schedule?: string;
  handler: (data: T) => Promise<void>;
};

/**
 * Jobs fetched, and run together, at a time by each worker. Jobs share the app's connection
 * pool (10 by default): five leave the rest to the pages.
 */
const BATCH_SIZE = 5;

export function defineJob<T extends object>(job: JobDefinition<T>): JobDefinition<T> {
  return job;
}

export type JobQueue = {
  enqueue<T extends object>(
    job: JobDefinition<T>,
    data: T,
    options?: { singletonKey?: string; startAfter?: Date },
  ): Promise<void>;
  stop(): Promise<void>;
  boss: PgBoss;
};

/**
 * Starts pg-boss on the same database as the app (its own schema), creates the queues and
 * starts a worker for each. Any number of app instances may run workers: pg-boss hands each
 * job to one of them.
 */
export async function startJobQueue(
  handle: DatabaseHandle,
  jobs: JobDefinition<never>[],
  options: { work?: boolean; pollingIntervalSeconds?: number } = {},
): Promise<JobQueue> {
  const log = getLog();
  const boss =
    handle.engine === "pglite"
      ? new PgBoss({ db: fromPglite(handle.pglite!), backend: "pglite", schema: "pgboss" })
      : new PgBoss({ db: poolDatabase(handle), schema: "pgboss" });
  boss.on("error", (error) => log.error({ err: error }, "job queue error"));
  await boss.start();
  for (const job of jobs) {
    const queueOptions = {
      retryLimit: job.retryLimit ?? 5,
      retryDelay: job.retryDelay ?? 5,
      retryBackoff: true,
      ...(job.expireInSeconds ? { expireInSeconds: job.expireInSeconds } : {}),
    };
    await boss.createQueue(job.name, { ...queueOptions, ...(job.policy ? { policy: job.policy } : {}) });
    // A queue made by an earlier version keeps its options unless told: bring them up to date.
    await boss.updateQueue(job.name, queueOptions);
    // Schedules live in the database: every instance writes the same one, and pg-boss sends each
    // tick once whichever instances are running.
    if (job.schedule) await boss.schedule(job.name, job.schedule);
    if (options.work !== false) {
      // Up to five jobs a fetch, run together, fetching again at once while fetches come back
      // full: a rush of orders sends its confirmations as fast as they are made, not one per
      // poll. Each job of a batch succeeds or fails on its own, and a failed one is retried alone.
      await boss.work<object>(
        job.name,
        {
          pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
          batchSize: BATCH_SIZE,
          burstWhenBatchFull: true,
          perJobResults: true,
        },
        (batch) =>
          Promise.all(
            batch.map(async (each): Promise<JobResult> => {
              try {
                await (job.handler as (data: object) => Promise<void>)(each.data);
                return { id: each.id, status: "completed" };
              } catch (error) {
                log.warn({ err: error, job: job.name, id: each.id }, "job failed; it will be retried");
                return { id: each.id, status: "failed", output: { message: String(error) } };
              }
            }),
          ),
      );
    }
  }
  return {
    boss,
    async enqueue(job, data, sendOptions) {
      await boss.send(job.name, data, sendOptions ?? {});
    },
    stop: () => boss.stop({ graceful: true, timeout: 10_000, close: false }),
  };
}

/** pg-boss shares the app's node-postgres pool instead of opening its own. */
function poolDatabase(handle: DatabaseHandle) {
  const pool = handle.pool!;
  return {
    async executeSql(text: string, values?: unknown[]) {
      return pool.query(text, values as unknown[]);
    },
  };
}
