import nodemailer from "nodemailer";
import { outboundMessages } from "../../../db/schema";
import type { Db } from "../db/client.server";

export type OutboundEmail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
};

/** Where emails go: an SMTP server, or the local mailbox when none is configured. */
export interface MailTransport {
  readonly name: "smtp" | "mailbox";
  send(email: OutboundEmail): Promise<{ providerId?: string }>;
  close?(): void;
}

export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    name: "smtp",
    async send(email) {
      const info = await transporter.sendMail({ from, ...email });
      return { providerId: info.messageId };
    },
    close: () => transporter.close(),
  };
}

/** The local mailbox keeps the message only in the database, where /dev/mailbox reads it. */
export const mailboxTransport: MailTransport = {
  name: "mailbox",
  async send() {
    return {};
  },
};

/** Sends one email and records it; the record is the mailbox when no provider is configured. */
export async function deliverEmail(db: Db, transport: MailTransport, email: OutboundEmail) {
  const { providerId } = await transport.send(email);
  const [row] = await db
    .insert(outboundMessages)
    .values({
      channel: "email",
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html ?? null,
      transport: transport.name,
      providerId: providerId ?? null,
    })
    .returning({ id: outboundMessages.id });
  return row!.id;
}
