import { and, eq, isNotNull, lt, ne, or } from "drizzle-orm";
import { outboundMessages } from "../../db/schema";
import type { Db } from "./db/client.server";
import type { Env } from "./env.server";
import { defineJob, type JobQueue } from "./jobs/queue.server";
import {
  deliverEmail,
  type MailTransport,
  mailboxTransport,
  type OutboundEmail,
  smtpTransport,
} from "./mail/mail.server";
import {
  deliverSms,
  mailboxSmsTransport,
  type OutboundSms,
  type SmsTransport,
  twilioTransport,
} from "./sms/sms.server";

export function mailTransportFor(env: Env): MailTransport {
  return env.SMTP_URL ? smtpTransport(env.SMTP_URL, env.MAIL_FROM) : mailboxTransport;
}

export function smsTransportFor(env: Env): SmsTransport {
  return env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_FROM
    ? twilioTransport({ accountSid: env.TWILIO_ACCOUNT_SID, authToken: env.TWILIO_AUTH_TOKEN, from: env.TWILIO_FROM })
    : mailboxSmsTransport;
}

/** What the message jobs deliver with. */
export type MessageServices = { db: Db; mail: MailTransport; sms: SmsTransport };

/**
 * A sent email or text carries reset links, sign-in links and codes: its job's data goes an hour
 * after it is done, instead of pg-boss's week.
 */
const SENT_JOB_SECONDS = 60 * 60;

/** Emails and texts are sent by a job so a slow or failing provider never holds up a page. */
export const sendEmailJob = defineJob<OutboundEmail, MessageServices>({
  name: "email-send",
  expireInSeconds: 120,
  deleteAfterSeconds: SENT_JOB_SECONDS,
  handler: async (email, { db, mail }) => {
    await deliverEmail(db, mail, email);
  },
});

export const sendSmsJob = defineJob<OutboundSms, MessageServices>({
  name: "sms-send",
  expireInSeconds: 120,
  deleteAfterSeconds: SENT_JOB_SECONDS,
  handler: async (sms, { db, sms: transport }) => {
    await deliverSms(db, transport, sms);
  },
});

/** How long the local mailbox keeps what it received: long enough to open a link or read a code. */
const MAILBOX_RETENTION_HOURS = 24;

/**
 * Deletes the mailbox's messages older than the retention, and the text of any message a
 * provider delivered (recorded before such records stopped keeping it). Message jobs past their
 * `deleteAfterSeconds` are deleted by pg-boss itself.
 */
export async function purgeSentMessages(db: Db, now = new Date()) {
  const before = new Date(now.getTime() - MAILBOX_RETENTION_HOURS * 60 * 60 * 1000);
  const deleted = await db
    .delete(outboundMessages)
    .where(and(eq(outboundMessages.transport, "mailbox"), lt(outboundMessages.sentAt, before)))
    .returning({ id: outboundMessages.id });
  const emptied = await db
    .update(outboundMessages)
    .set({ text: null, html: null })
    .where(
      and(
        ne(outboundMessages.transport, "mailbox"),
        or(isNotNull(outboundMessages.text), isNotNull(outboundMessages.html)),
      ),
    )
    .returning({ id: outboundMessages.id });
  return { deleted: deleted.length, emptied: emptied.length };
}

export const purgeSentMessagesJob = defineJob<object, Pick<MessageServices, "db">>({
  name: "sent-messages-purge",
  schedule: "17 * * * *",
  policy: "stately",
  handler: async (_data, { db }) => {
    await purgeSentMessages(db);
  },
});

export const messageJobs = [sendEmailJob, sendSmsJob, purgeSentMessagesJob];

/** Where areas post the emails and texts they send; delivery happens in the message jobs. */
export type Outbox = {
  sendEmail(email: OutboundEmail): Promise<void>;
  sendSms(sms: OutboundSms): Promise<void>;
};

export function jobOutbox(jobs: Pick<JobQueue, "enqueue">): Outbox {
  return {
    sendEmail: (email) => jobs.enqueue(sendEmailJob, email),
    sendSms: (sms) => jobs.enqueue(sendSmsJob, sms),
  };
}
