import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, queryRows, type TestDatabase } from "~/server/db/test-database";
import { type JobQueue, startJobQueue } from "~/server/jobs/queue.server";
import { paymentJobs } from "./payment-jobs.server";

let database: TestDatabase;
let queue: JobQueue;

beforeAll(async () => {
  database = await createTestDatabase();
  queue = await startJobQueue(database, paymentJobs);
});

afterAll(async () => {
  await queue?.stop();
  await database?.cleanup();
});

describe("the payment jobs", () => {
  it("run at most one at a time across every instance, on their schedules", async () => {
    const queues = await queryRows<{ name: string; policy: string }>(
      database,
      "select name, policy from pgboss.queue where name in ('expire-holds', 'reconcile-payments', 'send-refunds') order by name",
    );
    expect(queues).toEqual([
      { name: "expire-holds", policy: "stately" },
      { name: "reconcile-payments", policy: "stately" },
      { name: "send-refunds", policy: "stately" },
    ]);
    const schedules = await queryRows<{ name: string; cron: string }>(
      database,
      "select name, cron from pgboss.schedule order by name",
    );
    expect(schedules).toEqual([
      { name: "expire-holds", cron: "* * * * *" },
      { name: "reconcile-payments", cron: "*/5 * * * *" },
      { name: "send-refunds", cron: "*/10 * * * *" },
    ]);
  });

  it("keep one waiting refund run however often refunds are asked for", async () => {
    for (let i = 0; i < 5; i++) await queue.boss.send("send-refunds", {});
    const waiting = await queryRows<{ n: number }>(
      database,
      "select count(*)::int as n from pgboss.job where name = 'send-refunds' and state = 'created'",
    );
    expect(waiting).toEqual([{ n: 1 }]);
  });
});
