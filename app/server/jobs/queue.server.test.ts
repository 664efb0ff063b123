import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboundMessages } from "../../../db/schema";
import { createTestDatabase, queryRows, type TestDatabase } from "../db/test-database";
import { deliverEmail, mailboxTransport, type OutboundEmail } from "../mail/mail.server";
import { defineJob, type JobDefinition, type JobQueue, startJobQueue } from "./queue.server";

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

const sendEmail = defineJob<OutboundEmail>({
  name: "test-email-send",
  handler: async (email) => {
    await deliverEmail(database.db, mailboxTransport, email);
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
  queue = await startJobQueue(database, [sendEmail, flakyEmail] as JobDefinition<never>[], {
    pollingIntervalSeconds: 0.5,
  });
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

  it("runs an enqueued job in a worker", async () => {
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
