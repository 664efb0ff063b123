import { eq } from "drizzle-orm";
import jsQR from "jsqr";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { verifySignedTicketCode } from "~/features/tickets/ticket-codes.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { type MailTransport, mailboxTransport, type OutboundEmail } from "~/server/mail/mail.server";
import { downMailServer, slowMailServer } from "~/server/mail/transports.test-support";
import { orderEmails, orders, outboundMessages, tickets } from "../../../db/schema";
import {
  enqueueOrderEmail,
  orderEmailJob,
  ordersAwaitingConfirmation,
  sendOrderConfirmation,
} from "./order-email.server";
import { festivalOrder, ORDER_ENV } from "./paid-orders.test-support";

const database = freshDatabasePerFile();
const env = ORDER_ENV;

/** The local mailbox, remembering what it was handed so the test can read the attachments. */
function recordingMailbox() {
  const sent: OutboundEmail[] = [];
  const transport: MailTransport = {
    name: "mailbox",
    async send(email) {
      sent.push(email);
      return mailboxTransport.send(email);
    },
  };
  return { sent, transport };
}

const orderWithTickets = () => festivalOrder(database().db);

async function messagesTo(email: string) {
  return database()
    .db.select({ subject: outboundMessages.subject, html: outboundMessages.html, text: outboundMessages.text })
    .from(outboundMessages)
    .where(eq(outboundMessages.to, email));
}

describe("sendOrderConfirmation", () => {
  it("emails every ticket with a scannable QR image and the receipt", async () => {
    const { db } = database();
    const { buyer, order } = await orderWithTickets();
    const mailbox = recordingMailbox();
    expect(await sendOrderConfirmation({ db, mail: mailbox.transport, env }, order.id)).toBe("sent");

    const [email] = mailbox.sent;
    expect(email!.to).toBe(buyer.email);
    expect(email!.subject).toMatch(/^Your tickets for Festival of Speed — order PL-\d{6}$/);
    // One inline picture per ticket, each referenced by the HTML and holding that ticket's signed code.
    expect(email!.attachments).toHaveLength(3);
    const codes = (await db.select({ code: tickets.code }).from(tickets).where(eq(tickets.orderId, order.id))).map(
      (row) => row.code,
    );
    for (const file of email!.attachments!) {
      expect(email!.html).toContain(`src="cid:${file.cid}"`);
      const { data, info } = await sharp(Buffer.from(file.contentBase64, "base64"))
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const scanned = jsQR(new Uint8ClampedArray(data), info.width, info.height);
      expect(codes).toContain(verifySignedTicketCode(scanned!.data, env.AUTH_SECRET));
    }
    // The receipt: lines with unit prices, the total, when it was paid and the order number.
    for (const line of ["Festival of Speed — Saturday day ticket  2 × £24.00 = £48.00", "Total  £87.00", "Paid "]) {
      expect(email!.text).toContain(line);
    }
    expect(email!.html).toContain("2 × £24.00");
    expect(email!.html).toContain("£87.00");
    expect(email!.text).toContain("Attendee: Sam Driver");

    // The mailbox keeps one self-contained copy: the QR codes show without the attachments.
    const [stored] = await messagesTo(buyer.email);
    expect(stored!.html).not.toContain("cid:");
    expect(stored!.html!.match(/src="data:image\/png;base64,/g)).toHaveLength(3);
  });

  it("sends once however many times it runs, even at the same time", async () => {
    const { db } = database();
    const { buyer, order } = await orderWithTickets();
    const deps = { db, mail: mailboxTransport, env };
    const results = await Promise.all([
      sendOrderConfirmation(deps, order.id),
      sendOrderConfirmation(deps, order.id),
      sendOrderConfirmation(deps, order.id),
    ]);
    expect(results.sort()).toEqual(["already_sent", "already_sent", "sent"]);
    expect(await sendOrderConfirmation(deps, order.id)).toBe("already_sent");
    expect(await messagesTo(buyer.email)).toHaveLength(1);
    const [claim] = await db.select().from(orderEmails).where(eq(orderEmails.orderId, order.id));
    expect(claim!.messageId).not.toBeNull();
  });

  it("leaves the claim free when sending fails, so the retry sends it", async () => {
    const { db } = database();
    const { buyer, order } = await orderWithTickets();
    await expect(sendOrderConfirmation({ db, mail: downMailServer, env }, order.id)).rejects.toThrow("down");
    expect(await db.select().from(orderEmails).where(eq(orderEmails.orderId, order.id))).toEqual([]);
    expect(await sendOrderConfirmation({ db, mail: mailboxTransport, env }, order.id)).toBe("sent");
    expect(await messagesTo(buyer.email)).toHaveLength(1);
  });

  it("holds no lock while the mail server answers: another sender finds the claim at once", async () => {
    const { db } = database();
    const { buyer, order } = await orderWithTickets();
    const slow = slowMailServer();
    const first = sendOrderConfirmation({ db, mail: slow.mail, env }, order.id);
    await expect
      .poll(() => db.select().from(orderEmails).where(eq(orderEmails.orderId, order.id)))
      .toMatchObject([{ claimedAt: expect.any(Date), sentAt: null, messageId: null }]);
    // The claim is committed, not a row lock: the second sender is answered without waiting.
    expect(await sendOrderConfirmation({ db, mail: mailboxTransport, env }, order.id)).toBe("already_sent");
    slow.answer();
    expect(await first).toBe("sent");
    const [claim] = await db.select().from(orderEmails).where(eq(orderEmails.orderId, order.id));
    expect(claim).toMatchObject({ sentAt: expect.any(Date), messageId: expect.any(String) });
    const [record] = await db.select().from(outboundMessages).where(eq(outboundMessages.id, claim!.messageId!));
    // A provider's record keeps who and what about, never the text.
    expect(record).toMatchObject({ to: buyer.email, transport: "smtp", providerId: "<slow@smtp>", text: null });
  });

  it("takes over a claim its server never recorded once it lapses, and the sweep finds that order", async () => {
    const { db } = database();
    const { buyer, order } = await orderWithTickets();
    const [row] = await db.select({ paidAt: orders.paidAt }).from(orders).where(eq(orders.id, order.id));
    // A server claimed the email, then stopped before sending it.
    const claimedAt = new Date(row!.paidAt!.getTime() + 1_000);
    await db.insert(orderEmails).values({ orderId: order.id, kind: "confirmation", claimedAt, sentAt: null });
    const deps = { db, mail: mailboxTransport, env };
    // Within the lapse it is taken for a send under way.
    expect(await ordersAwaitingConfirmation(db, new Date(claimedAt.getTime() + 4 * 60_000))).not.toContain(order.id);
    expect(await sendOrderConfirmation(deps, order.id)).toBe("already_sent");
    // Five minutes on (the send takes the clock's time), the sweep asks again and the next sender
    // sends it, once.
    await db
      .update(orderEmails)
      .set({ claimedAt: new Date(Date.now() - 5 * 60_000 - 1_000) })
      .where(eq(orderEmails.orderId, order.id));
    const later = new Date(row!.paidAt!.getTime() + 10 * 60_000);
    expect(await ordersAwaitingConfirmation(db, later)).toContain(order.id);
    const twice = await Promise.all([sendOrderConfirmation(deps, order.id), sendOrderConfirmation(deps, order.id)]);
    expect(twice.sort()).toEqual(["already_sent", "sent"]);
    expect(await messagesTo(buyer.email)).toHaveLength(1);
    expect(await ordersAwaitingConfirmation(db, later)).not.toContain(order.id);
  });

  it("sends nothing for an unpaid, refunded or unknown order", async () => {
    const { db } = database();
    const { buyer, order } = await orderWithTickets();
    await db.update(orders).set({ status: "refunded" }).where(eq(orders.id, order.id));
    const deps = { db, mail: mailboxTransport, env };
    expect(await sendOrderConfirmation(deps, order.id)).toBe("not_paid");
    expect(await sendOrderConfirmation(deps, "00000000-0000-4000-8000-000000000000")).toBe("not_found");
    expect(await messagesTo(buyer.email)).toEqual([]);
  });
});

describe("enqueueOrderEmail", () => {
  it("queues the confirmation job keyed by the order", async () => {
    const calls: unknown[] = [];
    await enqueueOrderEmail({ enqueue: async (...args) => void calls.push(args) }, "order-1");
    expect(calls).toEqual([[orderEmailJob, { orderId: "order-1" }, { singletonKey: "order-1" }]]);
  });
});

describe("ordersAwaitingConfirmation", () => {
  it("finds a paid order whose confirmation never went out, and forgets it once sent", async () => {
    const { db } = database();
    const { order } = await orderWithTickets();
    const [row] = await db.select({ paidAt: orders.paidAt }).from(orders).where(eq(orders.id, order.id));
    const paidAt = row!.paidAt!;
    // Just paid: the settlement's own follow-up is still on its way.
    expect(await ordersAwaitingConfirmation(db, new Date(paidAt.getTime() + 30_000))).not.toContain(order.id);
    // Unless the server has just started: then no follow-up of its own is on its way.
    expect(await ordersAwaitingConfirmation(db, new Date(paidAt.getTime() + 30_000), { afterMinutes: 0 })).toContain(
      order.id,
    );
    // Ten minutes later with no email: the sweep picks it up.
    const later = new Date(paidAt.getTime() + 10 * 60_000);
    expect(await ordersAwaitingConfirmation(db, later)).toContain(order.id);
    await sendOrderConfirmation({ db, mail: recordingMailbox().transport, env }, order.id);
    expect(await ordersAwaitingConfirmation(db, later)).not.toContain(order.id);
    // Three days on it is too old to send unasked.
    expect(await ordersAwaitingConfirmation(db, new Date(paidAt.getTime() + 3 * 24 * 3600_000))).toEqual([]);
  });
});
