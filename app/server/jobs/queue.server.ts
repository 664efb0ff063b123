import { fromPglite, type JobResult, PgBoss, type QueuePolicy } from "pg-boss";
import type { DatabaseHandle } from "../db/client.server";
import { getLog } from "../log.server";
import { giveWay } from "./give-way.server";

/**
 * A named job with its handler. Areas define theirs beside the rules they run; the composition
 * root (app/app.server.ts) hands the whole list to the queue, and the services each handler
 * needs (`S`: the database, the payment gateway…) to its workers.
 */
export type JobDefinition<T extends object = object, S = unknown> = {
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
  /**
   * How long a finished job (done, failed or cancelled) keeps its data before pg-boss deletes it
   * (its default is 7 days). Jobs whose data holds secrets keep it for less.
   */
  deleteAfterSeconds?: number;
  /** A cron expression (UTC): the job is also sent on this schedule, once per tick for all instances. */
  schedule?: string;
  handler: (data: T, services: S) => Promise<void>;
};

/**
 * Jobs fetched, and run together, at a time by each worker. Jobs share the app's connection
 * pool (10 by default): five leave the rest to the pages.
 */
const BATCH_SIZE = 5;

export function defineJob<T extends object, S = unknown>(job: JobDefinition<T, S>): JobDefinition<T, S> {
  return job;
}

/** Any job, whatever its data and services, as the list the queue is started with. */
// biome-ignore lint/suspicious/noExplicitAny: a list of jobs mixes data and service types.
export type AnyJobDefinition = JobDefinition<any, any>;

export type JobQueue = {
  enqueue<T extends object>(
    job: Pick<JobDefinition<T, never>, "name">,
    data: T,
    options?: { singletonKey?: string; startAfter?: Date },
  ): Promise<void>;
  /**
   * Starts a worker for each job, running its handler with `services`. Called once the services
   * exist (they include this queue); a process that only sends jobs never calls it.
   */
  work(services: unknown, options?: { pollingIntervalSeconds?: number }): Promise<void>;
  stop(): Promise<void>;
  boss: PgBoss;
};

/**
 * Starts pg-boss on the same database as the app (its own schema) and creates the queues and
 * their schedules. Workers start with `work()`. Any number of app instances may run workers:
 * pg-boss hands each job to one of them.
 */
export async function startJobQueue(handle: DatabaseHandle, jobs: AnyJobDefinition[]): Promise<JobQueue> {
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
      ...(job.deleteAfterSeconds ? { deleteAfterSeconds: job.deleteAfterSeconds } : {}),
    };
    await boss.createQueue(job.name, { ...queueOptions, ...(job.policy ? { policy: job.policy } : {}) });
    // A queue made by an earlier version keeps its options unless told: bring them up to date.
    await boss.updateQueue(job.name, queueOptions);
    // Schedules live in the database: every instance writes the same one, and pg-boss sends each
    // tick once whichever instances are running.
    if (job.schedule) await boss.schedule(job.name, job.schedule);
  }

  async function work(services: unknown, workOptions: { pollingIntervalSeconds?: number } = {}) {
    for (const job of jobs) {
      // Up to five jobs a fetch, run together, fetching again at once while fetches come back
      // full: a rush of orders sends its confirmations as fast as they are made, not one per
      // poll. Each job of a batch succeeds or fails on its own, and a failed one is retried alone.
      // A batch first gives way to requests while the server is busy (give-way.server.ts).
      await boss.work<object>(
        job.name,
        {
          pollingIntervalSeconds: workOptions.pollingIntervalSeconds ?? 1,
          batchSize: BATCH_SIZE,
          burstWhenBatchFull: true,
          perJobResults: true,
        },
        async (batch) => {
          await giveWay();
          return Promise.all(
            batch.map(async (each): Promise<JobResult> => {
              try {
                await job.handler(each.data, services);
                return { id: each.id, status: "completed" };
              } catch (error) {
                log.warn({ err: error, job: job.name, id: each.id }, "job failed; it will be retried");
                return { id: each.id, status: "failed", output: { message: String(error) } };
              }
            }),
          );
        },
      );
    }
  }

  return {
    boss,
    async enqueue(job, data, sendOptions) {
      await boss.send(job.name, data, sendOptions ?? {});
    },
    work,
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

/**
 * Jobs not finished yet, by queue and state: waiting (even until a later time), waiting to be
 * retried, or running. pg-boss's own queues (`__pgboss__…`) are left out: they forward the
 * schedules, and what they forward is counted when it arrives in the app's queue.
 */
const UNFINISHED_JOBS = `
  select name, state::text as state, count(*)::int as jobs
  from pgboss.job
  where state in ('created', 'retry', 'active')
    and (cardinality($1::text[]) = 0 and not starts_with(name, '__pgboss__') or name = any($1::text[]))
    and (state <> 'active' or $2::timestamptz is null or started_on >= $2::timestamptz)
  group by name, state
  order by name, state`;

/**
 * Resolves once no job of the app's queues (or of `queues`) is waiting, waiting to be retried or
 * running, so a test can say that something was not done (no email went out) once everything
 * asked for has had its turn, instead of after a pause that may be too short. Every job queued
 * before the call is then finished. Running jobs started before `abandonedBefore` are not waited
 * for: a server killed mid-run leaves its jobs running until they expire. Rejects, naming what is
 * still busy, after `timeoutMs`.
 */
export async function whenIdle(
  handle: DatabaseHandle,
  options: { queues?: string[]; abandonedBefore?: Date; timeoutMs?: number } = {},
): Promise<void> {
  const db = handle.engine === "pglite" ? fromPglite(handle.pglite!) : poolDatabase(handle);
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const { rows } = await db.executeSql(UNFINISHED_JOBS, [
      options.queues ?? [],
      options.abandonedBefore?.toISOString() ?? null,
    ]);
    if (rows.length === 0) return;
    if (Date.now() > deadline) {
      const busy = (rows as { name: string; state: string; jobs: number }[])
        .map((row) => `${row.jobs} ${row.state} in ${row.name}`)
        .join(", ");
      throw new Error(`The job queue is still busy after ${options.timeoutMs ?? 30_000} ms: ${busy}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
