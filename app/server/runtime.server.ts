import { type Auth, createAuth } from "./auth/auth.server";
import type { DatabaseHandle, Db } from "./db/client.server";
import { openPglite, openPostgres, runMigrations } from "./db/client.server";
import { type Env, getEnv } from "./env.server";
import { type JobDefinition, type JobQueue, startJobQueue } from "./jobs/queue.server";
import { getLog } from "./log.server";
import type { MailTransport } from "./mail/mail.server";
import { type PaymentGateway, paymentGatewayFor } from "./payments/payments.server";
import type { SmsTransport } from "./sms/sms.server";
import { storageFor } from "./storage/storage.server";

/** Everything a request needs from the process: made once, kept on globalThis. */
export type Runtime = {
  env: Env;
  db: Db;
  database: DatabaseHandle;
  jobs: JobQueue;
  auth: Auth;
  mail: MailTransport;
  sms: SmsTransport;
  payments: PaymentGateway;
  startedAt: Date;
  stop(): Promise<void>;
};

const globalRuntime = globalThis as unknown as {
  __pitlaneRuntime?: Runtime;
  __pitlaneRuntimeStarting?: Promise<Runtime>;
};

export function getRuntime(): Runtime {
  const runtime = globalRuntime.__pitlaneRuntime;
  if (!runtime) throw new Error("The Pitlane runtime has not been started");
  return runtime;
}

export function startRuntime(options: { work?: boolean } = {}): Promise<Runtime> {
  globalRuntime.__pitlaneRuntimeStarting ??= boot(options).catch((error) => {
    globalRuntime.__pitlaneRuntimeStarting = undefined;
    throw error;
  });
  return globalRuntime.__pitlaneRuntimeStarting;
}

async function boot(options: { work?: boolean }): Promise<Runtime> {
  const env = getEnv();
  const log = getLog();
  const { mailTransportFor, sendEmail, sendEmailJob, sendSms, sendSmsJob, smsTransportFor } = await import(
    "./messages.server"
  );
  const { seedDemoContent } = await import("./seed/seed.server");
  const { catchUpAfterStart, paymentJobs } = await import("./jobs/payment-jobs.server");
  const { orderEmailJob } = await import("../features/orders/order-email.server");

  const database = env.DATABASE_URL
    ? await openPostgres(env.DATABASE_URL, env.DATABASE_POOL_SIZE)
    : await openPglite(env.DATA_DIR);
  await runMigrations(database);
  log.info({ engine: database.engine }, "database ready");

  const jobs = await startJobQueue(
    database,
    [sendEmailJob, sendSmsJob, orderEmailJob, ...paymentJobs] as JobDefinition<never>[],
    options,
  );
  const mail = mailTransportFor(env);
  const sms = smsTransportFor(env);

  const runtime: Runtime = {
    env,
    db: database.db,
    database,
    jobs,
    auth: createAuth({ db: database.db, env, sendEmail, sendSms }),
    mail,
    sms,
    payments: paymentGatewayFor(env),
    startedAt: new Date(),
    async stop() {
      await jobs.stop().catch((error) => log.warn({ err: error }, "job queue did not stop cleanly"));
      mail.close?.();
      await database.close();
      globalRuntime.__pitlaneRuntime = undefined;
      globalRuntime.__pitlaneRuntimeStarting = undefined;
    },
  };
  globalRuntime.__pitlaneRuntime = runtime;

  const seedDemo = env.SEED_DEMO ?? database.engine === "pglite";
  await seedDemoContent(runtime.db, { demo: seedDemo, storage: storageFor(env) });
  // In the background: a provider that is slow to answer must not hold up serving pages.
  if (options.work !== false) void catchUpAfterStart(runtime);
  return runtime;
}
