import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboundMessages } from "../../../db/schema";
import type { Db } from "../db/client.server";
import { createTestDatabase, queryRows, type TestDatabase } from "../db/test-database";
import { deliverEmail, mailboxTransport, type OutboundEmail } from "../mail/mail.server";
import { defineJob, type JobQueue, startJobQueue, whenIdle } from "./queue.server";

/** Polls until `check` returns something truthy; jobs run on the worker's own schedule. */
async function eventually<T>(check: () => Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Nothing happened within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

let database: TestDatabase;
let queue: JobQueue;

/** The database comes from the services the workers were started with, as the app's jobs get theirs. */
const sendEmail = defineJob<OutboundEmail, { db: Db }>({
  name: "test-email-send",
  handler: async (email, { db }) => {
    await deliverEmail(db, mailboxTransport, email);
  },
});

/** Fails the first attempt for each recipient, as a provider that is briefly down would. */
const attempts = new Map<string, number>();
const flakyEmail = defineJob<OutboundEmail>({
  name: "test-flaky-email-send",
  retryLimit: 2,
  retryDelay: 0,
  handler: async (email) => {
    const attempt = (attempts.get(email.to) ?? 0) + 1;
    attempts.set(email.to, attempt);
    if (attempt === 1) throw new Error("provider unavailable");
    await deliverEmail(database.db, mailboxTransport, email);
  },
});

async function messagesTo(to: string) {
  return database.db
    .select({ subject: outboundMessages.subject, transport: outboundMessages.transport })
    .from(outboundMessages)
    .where(eq(outboundMessages.to, to));
}

beforeAll(async () => {
  database = await createTestDatabase();
  queue = await startJobQueue(database, [sendEmail, flakyEmail]);
  await queue.work({ db: database.db }, { pollingIntervalSeconds: 0.5 });
});

afterAll(async () => {
  // The workers use the database, so they stop before it closes.
  await queue?.stop();
  await database?.cleanup();
});

describe("startJobQueue", () => {
  it("creates a queue for each job with its retry policy", async () => {
    const queues = await queryRows<{ name: string; retry_limit: number }>(
      database,
      "select name, retry_limit from pgboss.queue where name like 'test-%' order by name",
    );
    expect(queues).toEqual([
      { name: "test-email-send", retry_limit: 5 },
      { name: "test-flaky-email-send", retry_limit: 2 },
    ]);
  });

  it("runs an enqueued job in a worker, with the services the workers were started with", async () => {
    await queue.enqueue(sendEmail, { to: "queued@example.com", subject: "Your order", text: "Thanks for your order." });

    const rows = await eventually(async () => {
      const found = await messagesTo("queued@example.com");
      return found.length > 0 ? found : null;
    });
    expect(rows).toEqual([{ subject: "Your order", transport: "mailbox" }]);
  });

  it("retries a job that fails", async () => {
    await queue.enqueue(flakyEmail, { to: "retried@example.com", subject: "Draw results", text: "You won." });

    const rows = await eventually(async () => {
      const found = await messagesTo("retried@example.com");
      return found.length > 0 ? found : null;
    });
    expect(rows).toEqual([{ subject: "Draw results", transport: "mailbox" }]);
    expect(attempts.get("retried@example.com")).toBe(2);
  });

  it("waits for startAfter before running a job", async () => {
    const startAfter = new Date(Date.now() + 2_000);
    await queue.enqueue(sendEmail, { to: "later@example.com", subject: "Reminder", text: "Tomorrow." }, { startAfter });

    const rows = await eventually(async () => {
      const found = await messagesTo("later@example.com");
      return found.length > 0 ? found : null;
    });
    expect(rows).toHaveLength(1);
    expect(Date.now()).toBeGreaterThanOrEqual(startAfter.getTime());
  });
});

describe("whenIdle", () => {
  it("resolves once every job queued before it has run, retries included", async () => {
    await queue.enqueue(sendEmail, { to: "idle-1@example.com", subject: "One", text: "1" });
    await queue.enqueue(sendEmail, { to: "idle-2@example.com", subject: "Two", text: "2" });
    // Fails its first attempt: idle only once it has been retried and sent.
    await queue.enqueue(flakyEmail, { to: "idle-3@example.com", subject: "Three", text: "3" });

    await whenIdle(database);

    expect(await messagesTo("idle-1@example.com")).toHaveLength(1);
    expect(await messagesTo("idle-2@example.com")).toHaveLength(1);
    expect(await messagesTo("idle-3@example.com")).toHaveLength(1);
    expect(attempts.get("idle-3@example.com")).toBe(2);
  });

  it("waits for a job due later, and names what keeps the queue busy", async () => {
    const id = await queue.boss.send(sendEmail.name, { to: "much-later@example.com" }, { startAfter: 3600 });
    await expect(whenIdle(database, { timeoutMs: 300 })).rejects.toThrow(/1 created in test-email-send/);
    await queue.boss.deleteJob(sendEmail.name, id!);
    await whenIdle(database);
  });

  it("leaves out running jobs started before a moment, as a killed server leaves them", async () => {
    // A queue nobody works: the job fetched here stays running, as on a server that died.
    await queue.boss.createQueue("test-abandoned");
    await queue.boss.send("test-abandoned", {});
    const [job] = await queue.boss.fetch("test-abandoned");
    expect(job).toBeDefined();
    await expect(whenIdle(database, { timeoutMs: 300 })).rejects.toThrow(/1 active in test-abandoned/);

    await whenIdle(database, { abandonedBefore: new Date(Date.now() + 1000) });
    await queue.boss.complete("test-abandoned", job!.id);
  });

  it("looks only at the queues it is given", async () => {
    const id = await queue.boss.send(sendEmail.name, { to: "later-still@example.com" }, { startAfter: 3600 });
    await whenIdle(database, { queues: [flakyEmail.name], timeoutMs: 300 });
    await queue.boss.deleteJob(sendEmail.name, id!);
  });
});
