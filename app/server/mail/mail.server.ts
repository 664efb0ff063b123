import nodemailer from "nodemailer";
import { outboundMessages } from "../../../db/schema";
import type { Db } from "../db/client.server";

export type OutboundEmail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Pictures the HTML shows inline as `cid:<cid>` (e-ticket QR codes). */
  attachments?: EmailAttachment[];
};

export type EmailAttachment = {
  filename: string;
  contentType: string;
  /** Base64, so an email can travel through the job queue as JSON. */
  contentBase64: string;
  cid: string;
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
      const { attachments, ...message } = email;
      const info = await transporter.sendMail({
        from,
        ...message,
        attachments: attachments?.map((file) => ({
          filename: file.filename,
          contentType: file.contentType,
          content: file.contentBase64,
          encoding: "base64",
          cid: file.cid,
        })),
      });
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

/**
 * Addresses under the reserved `.invalid` domain (RFC 2606) stand in for a deleted member's
 * (`deleted-<id>@invalid`, kept on their orders): nothing is ever sent there.
 */
function isUndeliverableAddress(address: string) {
  return /\.invalid$|@invalid$/i.test(address.trim());
}

/** What the record of a sent email keeps (a row of `outbound_messages`). */
export type OutboundRecord = typeof outboundMessages.$inferInsert;

/**
 * Sends one email and answers its record, for the caller to write: null when the address is one
 * nothing is sent to. When no provider is configured the record is the mailbox and keeps the
 * whole message; otherwise it keeps who, what about, how and when, never the text: it would hold
 * every reset and sign-in link a provider delivered.
 */
export async function sendEmail(transport: MailTransport, email: OutboundEmail): Promise<OutboundRecord | null> {
  if (isUndeliverableAddress(email.to)) return null;
  const { providerId } = await transport.send(email);
  const keepText = transport.name === "mailbox";
  return {
    channel: "email",
    to: email.to,
    subject: email.subject,
    text: keepText ? email.text : null,
    html: keepText && email.html ? inlineAttachments(email.html, email.attachments ?? []) : null,
    transport: transport.name,
    providerId: providerId ?? null,
  };
}

/** Sends one email and records it (`sendEmail`). Answers the record's id, or null when nothing was sent. */
export async function deliverEmail(db: Db, transport: MailTransport, email: OutboundEmail): Promise<string | null> {
  const record = await sendEmail(transport, email);
  if (!record) return null;
  const [row] = await db.insert(outboundMessages).values(record).returning({ id: outboundMessages.id });
  return row!.id;
}

/**
 * The record keeps one self-contained HTML document: inline pictures become data: URIs, so the
 * local mailbox shows the email as a mail client would without storing files beside it.
 */
function inlineAttachments(html: string, attachments: EmailAttachment[]) {
  let out = html;
  for (const file of attachments) {
    out = out.replaceAll(`cid:${file.cid}`, `data:${file.contentType};base64,${file.contentBase64}`);
  }
  return out;
}
