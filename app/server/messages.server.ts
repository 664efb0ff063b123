import type { Env } from "./env.server";
import { defineJob } from "./jobs/queue.server";
import {
  deliverEmail,
  type MailTransport,
  mailboxTransport,
  type OutboundEmail,
  smtpTransport,
} from "./mail/mail.server";
import { getRuntime } from "./runtime.server";
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

/** Emails and texts are sent by a job so a slow or failing provider never holds up a page. */
export const sendEmailJob = defineJob<OutboundEmail>({
  name: "email-send",
  expireInSeconds: 120,
  handler: async (email) => {
    const { db, mail } = getRuntime();
    await deliverEmail(db, mail, email);
  },
});

export const sendSmsJob = defineJob<OutboundSms>({
  name: "sms-send",
  expireInSeconds: 120,
  handler: async (sms) => {
    const { db, sms: transport } = getRuntime();
    await deliverSms(db, transport, sms);
  },
});

export async function sendEmail(email: OutboundEmail) {
  await getRuntime().jobs.enqueue(sendEmailJob, email);
}

export async function sendSms(sms: OutboundSms) {
  await getRuntime().jobs.enqueue(sendSmsJob, sms);
}
