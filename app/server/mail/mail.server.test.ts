import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { SMTPServer, type SMTPServerEnvelope } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outboundMessages } from "../../../db/schema";
import { freshDatabasePerFile } from "../db/test-database";
import { parseEnv } from "../env.server";
import { mailTransportFor } from "../messages.server";
import { deliverEmail, type MailTransport, mailboxTransport, smtpTransport } from "./mail.server";
import { listOutboundMessages } from "./mailbox.server";

const database = freshDatabasePerFile();

async function messagesTo(to: string) {
  return database()
    .db.select({
      channel: outboundMessages.channel,
      subject: outboundMessages.subject,
      text: outboundMessages.text,
      html: outboundMessages.html,
      transport: outboundMessages.transport,
      providerId: outboundMessages.providerId,
    })
    .from(outboundMessages)
    .where(eq(outboundMessages.to, to));
}

type Received = { envelope: SMTPServerEnvelope; raw: string };

/** Splits a raw MIME message into its headers and, per content type, the body of each part. */
function parseMessage(raw: string) {
  const [head = "", ...rest] = raw.split("\r\n\r\n");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n\s+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get("content-type") ?? "")?.[1];
  const parts = new Map<string, string>();
  for (const part of boundary ? rest.join("\r\n\r\n").split(`--${boundary}`) : []) {
    const [partHead = "", ...body] = part.replace(/^\r\n/, "").split("\r\n\r\n");
    const type = /content-type:\s*([^;\r\n]+)/i.exec(partHead)?.[1];
    if (type) parts.set(type, body.join("\r\n\r\n").trim());
  }
  return { headers, parts };
}

describe("smtpTransport", () => {
  const received: Received[] = [];
  const rejected = new Set<string>();
  let server: SMTPServer;
  let url: string;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      // No certificate here: a plain loopback session like a local relay.
      disabledCommands: ["STARTTLS"],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (rejected.has(address.address)) return callback(new Error("550 No such user here"));
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          received.push({ envelope: structuredClone(session.envelope), raw: Buffer.concat(chunks).toString("utf8") });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    received.length = 0;
  });

  it("hands the message to the SMTP server and records the delivery without its text", async () => {
    const transport = smtpTransport(url, "Pitlane <no-reply@pitlane.test>");
    try {
      await deliverEmail(database().db, transport, {
        to: "driver@example.com",
        subject: "Your tickets for Brands Hatch",
        text: "Show this email at the gate.",
        html: "<p>Show this email at the <strong>gate</strong>.</p>",
      });
    } finally {
      transport.close?.();
    }

    expect(received).toHaveLength(1);
    const [{ envelope, raw }] = received as [Received];
    expect(envelope.mailFrom ? envelope.mailFrom.address : null).toBe("no-reply@pitlane.test");
    expect(envelope.rcptTo.map((rcpt) => rcpt.address)).toEqual(["driver@example.com"]);

    const { headers, parts } = parseMessage(raw);
    expect(headers.get("to")).toBe("driver@example.com");
    expect(headers.get("from")).toBe("Pitlane <no-reply@pitlane.test>");
    expect(headers.get("subject")).toBe("Your tickets for Brands Hatch");
    expect(parts.get("text/plain")).toBe("Show this email at the gate.");
    expect(parts.get("text/html")).toBe("<p>Show this email at the <strong>gate</strong>.</p>");

    const rows = await messagesTo("driver@example.com");
    expect(rows).toEqual([
      {
        channel: "email",
        subject: "Your tickets for Brands Hatch",
        text: null,
        html: null,
        transport: "smtp",
        providerId: headers.get("message-id"),
      },
    ]);
    expect(rows[0]!.providerId).toMatch(/^<.+@.+>$/);
  });

  it("records nothing when the server refuses the message, so the job retries it", async () => {
    rejected.add("gone@example.com");
    const transport = smtpTransport(url, "no-reply@pitlane.test");
    try {
      await expect(
        deliverEmail(database().db, transport, { to: "gone@example.com", subject: "Hello", text: "Hello" }),
      ).rejects.toThrow(/No such user here/);
    } finally {
      transport.close?.();
    }
    expect(received).toEqual([]);
    expect(await messagesTo("gone@example.com")).toEqual([]);
  });

  it("is chosen when SMTP_URL is set", () => {
    const base = { AUTH_SECRET: "s".repeat(32), DATA_DIR: "unused" };
    expect(mailTransportFor(parseEnv({ ...base, SMTP_URL: url })).name).toBe("smtp");
    expect(mailTransportFor(parseEnv(base))).toBe(mailboxTransport);
  });
});

describe("mailboxTransport", () => {
  it("stores the message in the mailbox without sending it anywhere", async () => {
    const id = await deliverEmail(database().db, mailboxTransport, {
      to: "member@example.com",
      subject: "Confirm your email",
      text: "Open the link to confirm.",
    });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await messagesTo("member@example.com")).toEqual([
      {
        channel: "email",
        subject: "Confirm your email",
        text: "Open the link to confirm.",
        html: null,
        transport: "mailbox",
        providerId: null,
      },
    ]);
  });
});

describe("deliverEmail", () => {
  it("sends nothing to a deleted member's stand-in address, and records nothing", async () => {
    const sent: string[] = [];
    const transport: MailTransport = {
      name: "smtp",
      async send(email) {
        sent.push(email.to);
        return {};
      },
    };
    for (const to of ["deleted-4b1d@invalid", "someone@example.invalid"])
      expect(await deliverEmail(database().db, transport, { to, subject: "Refund", text: "Hello" })).toBeNull();
    expect(sent).toEqual([]);
    expect(await messagesTo("deleted-4b1d@invalid")).toEqual([]);
  });
});

describe("listOutboundMessages", () => {
  it("lists the newest message first, up to the limit", async () => {
    const { db } = database();
    // Ahead of every message the other tests in this file send, whatever their order.
    const hour = 60 * 60 * 1000;
    const [oldest, middle, newest] = [1, 2, 3].map((hours) => new Date(Date.now() + hours * hour)) as [
      Date,
      Date,
      Date,
    ];
    await db.insert(outboundMessages).values([
      { channel: "email", to: "a@example.com", subject: "middle", text: "2", transport: "mailbox", sentAt: middle },
      { channel: "sms", to: "+447700900003", text: "newest", transport: "mailbox", sentAt: newest },
      { channel: "email", to: "c@example.com", subject: "oldest", text: "1", transport: "mailbox", sentAt: oldest },
    ]);

    const all = await listOutboundMessages(db);
    expect(all.slice(0, 3).map((m) => m.text)).toEqual(["newest", "2", "1"]);
    const times = all.map((m) => m.sentAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(all[0]).toMatchObject({
      channel: "sms",
      to: "+447700900003",
      subject: null,
      transport: "mailbox",
      sentAt: newest.toISOString(),
    });

    expect((await listOutboundMessages(db, 2)).map((m) => m.text)).toEqual(["newest", "2"]);
  });
});
