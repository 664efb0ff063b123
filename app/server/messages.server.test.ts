import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboundMessages } from "../../db/schema";
import { createTestDatabase, queryRows, type TestDatabase } from "./db/test-database";
import { type JobQueue, startJobQueue } from "./jobs/queue.server";
import { messageJobs, purgeSentMessages, purgeSentMessagesJob, sendEmailJob, sendSmsJob } from "./messages.server";

let database: TestDatabase;
let queue: JobQueue;

beforeAll(async () => {
  database = await createTestDatabase();
  queue = await startJobQueue(database, messageJobs);
});

afterAll(async () => {
  await queue?.stop();
  await database?.cleanup();
});

const HOUR = 60 * 60 * 1000;

describe("purgeSentMessages", () => {
  it("deletes the mailbox's messages after a day, and empties any a provider delivered", async () => {
    const now = new Date("2026-06-01T12:00:00Z");
    await database.db.insert(outboundMessages).values([
      {
        channel: "email",
        to: "old@example.com",
        subject: "Reset",
        text: "https://club.example/reset?token=old",
        transport: "mailbox",
        sentAt: new Date(now.getTime() - 25 * HOUR),
      },
      {
        channel: "sms",
        to: "+447700900001",
        text: "Your code is 123456",
        transport: "mailbox",
        sentAt: new Date(now.getTime() - 25 * HOUR),
      },
      {
        channel: "email",
        to: "new@example.com",
        subject: "Reset",
        text: "https://club.example/reset?token=new",
        transport: "mailbox",
        sentAt: new Date(now.getTime() - 23 * HOUR),
      },
      {
        channel: "email",
        to: "smtp@example.com",
        subject: "Sign in",
        text: "https://club.example/magic?token=smtp",
        html: "<a>link</a>",
        transport: "smtp",
        sentAt: new Date(now.getTime() - HOUR),
      },
    ]);

    expect(await purgeSentMessages(database.db, now)).toEqual({ deleted: 2, emptied: 1 });

    const left = await database.db
      .select({
        to: outboundMessages.to,
        subject: outboundMessages.subject,
        text: outboundMessages.text,
        html: outboundMessages.html,
      })
      .from(outboundMessages)
      .orderBy(outboundMessages.to);
    expect(left).toEqual([
      { to: "new@example.com", subject: "Reset", text: "https://club.example/reset?token=new", html: null },
      { to: "smtp@example.com", subject: "Sign in", text: null, html: null },
    ]);
    await database.db.delete(outboundMessages).where(eq(outboundMessages.to, "new@example.com"));
  });
});

describe("message queues", () => {
  it("delete a sent message's job, with the links and codes it carries, an hour after it is done", async () => {
    const queues = await queryRows<{ name: string; deletion_seconds: number }>(
      database,
      "select name, deletion_seconds from pgboss.queue where name = any($1::text[]) order by name",
      [[sendEmailJob.name, sendSmsJob.name]],
    );
    expect(queues).toEqual([
      { name: "email-send", deletion_seconds: 3600 },
      { name: "sms-send", deletion_seconds: 3600 },
    ]);
  });

  it("purge the sent messages every hour", async () => {
    const schedules = await queryRows<{ name: string; cron: string }>(
      database,
      "select name, cron from pgboss.schedule where name = $1",
      [purgeSentMessagesJob.name],
    );
    expect(schedules).toEqual([{ name: "sent-messages-purge", cron: "17 * * * *" }]);
  });
});
