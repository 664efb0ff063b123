// The composition root: the one module that knows every area. It builds the runtime from the
// environment and hands each adapter what it needs from the areas — the job list, the route-change
// steps, the seeders, the account emails. Nothing else looks services up: loaders and actions get
// the runtime from the router context, jobs get it as their handler's argument. Start here to
// see how the site is put together (docs/architecture.md draws it).

import { cartStep } from "~/web/cart-step.server";
import { demoAccountsSeeder, demoContentWanted } from "./demo/demo-accounts.server";
import { demoApplicationsSeeder } from "./demo/demo-applications.server";
import { demoArticlesSeeder } from "./demo/demo-articles.server";
import { demoCarsSeeder } from "./demo/demo-cars.server";
import { demoDrawsSeeder } from "./demo/demo-draws.server";
import { demoEventsSeeder } from "./demo/demo-events.server";
import { demoMembershipSeeder } from "./demo/demo-membership.server";
import { demoPartnersSeeder } from "./demo/demo-partners.server";
import { demoProductsSeeder } from "./demo/demo-products.server";
import { accountMessages } from "./features/accounts/auth-messages.server";
import { PASSWORD_MAX, PASSWORD_MIN } from "./features/accounts/schemas";
import { drawRefunder } from "./features/checkout/draw-refunds.server";
import { catchUpAfterStart, paymentJobs } from "./features/checkout/payment-jobs.server";
import {
  PAYMENT_EVENTS_CHANNEL,
  rememberProcessedPaymentEvent,
} from "./features/checkout/payment-notifications.server";
import { answerPaymentNotification as answerNotification } from "./features/checkout/payment-webhook.server";
import { legalPagesSeeder } from "./features/content/legal-pages.server";
import { creditExpiryJob } from "./features/credit/credit.server";
import { drawJobs } from "./features/draws/draw-jobs.server";
import { lowStockAlertJob } from "./features/fulfilment/stock-alerts.server";
import { applyBillingEvent, membershipClockJob, membershipClockServices } from "./features/membership/renewals.server";
import { orderEmailJob } from "./features/orders/order-email.server";
import { refusedPaymentEmailJob } from "./features/orders/refused-payment-email.server";
import { settleOrder } from "./features/selling/selling.server";
import { handBackJob } from "./features/transfers/hand-backs.server";
import { waitingListJob } from "./features/waiting-lists/offers.server";
import { createAuth } from "./server/auth/auth.server";
import { authStep } from "./server/auth/session.server";
import { SessionCache } from "./server/auth/session-cache.server";
import { type Db, openPglite, openPostgres, runMigrations } from "./server/db/client.server";
import { getEnv } from "./server/env.server";
import { type AnyJobDefinition, startJobQueue } from "./server/jobs/queue.server";
import { getLog } from "./server/log.server";
import { jobOutbox, mailTransportFor, messageJobs, smsTransportFor } from "./server/messages.server";
import { paymentGatewayFor } from "./server/payments/configured-gateway.server";
import type { RouteStep, Runtime } from "./server/runtime.server";
import { runSeeders, type Seeder } from "./server/seed.server";
import { storageFor } from "./server/storage/storage.server";

export { demoSignIns } from "./demo/demo-accounts.server";

export { createLoadContext } from "./server/context.server";

const settleRenewal = (db: Db) => (input: Parameters<typeof settleOrder>[1]) => settleOrder(db, input);

/**
 * The payment provider's notifications: orders' payments, and subscription notifications (Stripe
 * Billing), which memberships act on.
 */
export function answerPaymentNotification(
  runtime: Runtime,
  request: { rawBody: Uint8Array; signature: string | null },
) {
  return answerNotification(runtime, request, (event, now) =>
    applyBillingEvent(membershipClockServices(runtime, settleRenewal), event, now),
  );
}

/** Every background job of every area; each is defined beside the rules it runs. */
const jobs: AnyJobDefinition[] = [
  ...messageJobs,
  orderEmailJob,
  refusedPaymentEmailJob,
  ...paymentJobs,
  ...drawJobs(drawRefunder),
  lowStockAlertJob,
  membershipClockJob(settleRenewal),
  waitingListJob,
  handBackJob,
  creditExpiryJob,
];

/**
 * The route-change steps by name. `auth` runs on every request (the root route asks for it);
 * `cart` joins a visitor's cart to the member's account once they sign in.
 */
const routeSteps: Record<string, RouteStep> = { auth: authStep, cart: cartStep };

/** In the order they depend on each other: the demo events and draws are run by the demo staff. */
const seeders: Seeder[] = [
  legalPagesSeeder,
  demoAccountsSeeder,
  demoCarsSeeder,
  demoEventsSeeder,
  demoApplicationsSeeder,
  demoDrawsSeeder,
  demoProductsSeeder,
  demoMembershipSeeder,
  demoPartnersSeeder,
  demoArticlesSeeder,
];

// One runtime per process, kept across dev reloads so a reload never opens a second database.
const globalApp = globalThis as unknown as { __pitlaneApp?: Promise<Runtime> };

/**
 * Starts the site's runtime once per process: the database (migrated and seeded), the job queue
 * and its workers, auth, mail, SMS, payments and storage. `work: false` starts no job workers
 * (a process that only serves pages, or a test).
 */
export function startApp(options: { work?: boolean } = {}): Promise<Runtime> {
  globalApp.__pitlaneApp ??= buildRuntime(options).catch((error) => {
    globalApp.__pitlaneApp = undefined;
    throw error;
  });
  return globalApp.__pitlaneApp;
}

async function buildRuntime(options: { work?: boolean }): Promise<Runtime> {
  const env = getEnv();
  const log = getLog();
  const database = env.DATABASE_URL
    ? await openPostgres(env.DATABASE_URL, env.DATABASE_POOL_SIZE)
    : await openPglite(env.DATA_DIR);
  await runMigrations(database);
  log.info({ engine: database.engine }, "database ready");

  let seedDemo: boolean;
  try {
    seedDemo = await demoContentWanted(database.db, {
      siteUrl: env.SITE_URL,
      asked: env.SEED_DEMO,
      embedded: database.engine === "pglite",
    });
  } catch (error) {
    await database.close();
    throw error;
  }

  const queue = await startJobQueue(database, jobs);
  const outbox = jobOutbox(queue);
  const mail = mailTransportFor(env);
  const brand = { siteName: env.SITE_NAME, siteUrl: env.SITE_URL };
  let stopHearing = async () => {};
  const sessions = new SessionCache();
  let stopHearingSessions = async () => {};
  const runtime: Runtime = {
    env,
    db: database.db,
    database,
    jobs: queue,
    auth: createAuth({
      db: database.db,
      env,
      messages: accountMessages(brand, outbox),
      passwordLength: { min: PASSWORD_MIN, max: PASSWORD_MAX },
    }),
    sessions,
    mail,
    sms: smsTransportFor(env),
    outbox,
    payments: paymentGatewayFor(env),
    storage: storageFor(env),
    steps: routeSteps,
    startedAt: new Date(),
    async stop() {
      await stopHearingSessions().catch((error) =>
        log.warn({ err: error }, "account change notices did not stop cleanly"),
      );
      await stopHearing().catch((error) => log.warn({ err: error }, "payment event notices did not stop cleanly"));
      await queue.stop().catch((error) => log.warn({ err: error }, "job queue did not stop cleanly"));
      mail.close?.();
      await database.close();
      globalApp.__pitlaneApp = undefined;
    },
  };

  await runSeeders(runtime.db, seeders, { demo: seedDemo, storage: runtime.storage });
  stopHearingSessions = await sessions.hear(database);
  if (options.work !== false) {
    // Payment events any server handles to the end: their repeats here are answered from memory.
    stopHearing = await database.listen(PAYMENT_EVENTS_CHANNEL, (notice) => {
      if (notice) rememberProcessedPaymentEvent(database.db, notice);
    });
    await queue.work(runtime);
    // In the background: a provider that is slow to answer must not hold up serving pages.
    void catchUpAfterStart(runtime);
  }
  return runtime;
}
