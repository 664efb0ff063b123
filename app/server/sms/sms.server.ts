import { outboundMessages } from "../../../db/schema";
import type { Db } from "../db/client.server";

export type OutboundSms = { to: string; text: string };

export interface SmsTransport {
  readonly name: "twilio" | "mailbox";
  send(sms: OutboundSms): Promise<{ providerId?: string }>;
}

export class SmsDeliveryError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "SmsDeliveryError";
  }
}

/** Twilio's REST API, called directly: one form-encoded POST needs no SDK. */
export function twilioTransport(
  config: { accountSid: string; authToken: string; from: string },
  fetchImpl: typeof fetch = fetch,
  baseUrl = "https://api.twilio.com",
): SmsTransport {
  const auth = Buffer.from(`${config.accountSid}:${config.authToken}`).toString("base64");
  return {
    name: "twilio",
    async send(sms) {
      const response = await fetchImpl(`${baseUrl}/2010-04-01/Accounts/${config.accountSid}/Messages.json`, {
        method: "POST",
        headers: { authorization: `Basic ${auth}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ To: sms.to, From: config.from, Body: sms.text }),
        signal: AbortSignal.timeout(15_000),
      });
      const body = (await response.json().catch(() => ({}))) as { sid?: string; message?: string };
      if (!response.ok) {
        throw new SmsDeliveryError(body.message ?? `Twilio answered ${response.status}`, response.status);
      }
      return { providerId: body.sid };
    },
  };
}

export const mailboxSmsTransport: SmsTransport = {
  name: "mailbox",
  async send() {
    return {};
  },
};

/**
 * Sends one text and records it. The text itself (a sign-in code) is kept only when the local
 * mailbox is the delivery.
 */
export async function deliverSms(db: Db, transport: SmsTransport, sms: OutboundSms) {
  const { providerId } = await transport.send(sms);
  const text = transport.name === "mailbox" ? sms.text : null;
  const [row] = await db
    .insert(outboundMessages)
    .values({ channel: "sms", to: sms.to, text, transport: transport.name, providerId: providerId ?? null })
    .returning({ id: outboundMessages.id });
  return row!.id;
}
