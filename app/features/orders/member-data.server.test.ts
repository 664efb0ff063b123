import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyers } from "~/features/checkout/stock.test-support";
import { formatOrderNumber } from "~/features/commerce/order-number";
import { deletedMemberEmail, deleteMemberAccount, exportMemberData } from "~/features/privacy/privacy.server";
import { formatTicketCode } from "~/features/tickets/ticket-codes.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { mailboxTransport } from "~/server/mail/mail.server";
import {
  cartItems,
  carts,
  orderEmails,
  orderItems,
  orders,
  outboundMessages,
  tickets,
  transactions,
  users,
} from "../../../db/schema";
import { sendOrderConfirmation } from "./order-email.server";
import { festivalOrder, ORDER_ENV } from "./paid-orders.test-support";

const database = freshDatabasePerFile();
/** A buyer with a paid, emailed order of two day tickets and a named weekend pass. */
async function buyerWithOrder(attendee = "Sam Driver") {
  const { db } = database();
  const bought = await festivalOrder(db, attendee);
  expect(await sendOrderConfirmation({ db, mail: mailboxTransport, env: ORDER_ENV }, bought.order.id)).toBe("sent");
  return bought;
}

describe("the shop's part of a member's data export", () => {
  it("lists the member's orders with their lines, tickets and payments, and the cart", async () => {
    const { db } = database();
    const { buyer, order, event } = await buyerWithOrder();
    const [cart] = await db.select({ id: carts.id }).from(carts).where(eq(carts.userId, buyer.id));
    await db.insert(cartItems).values({
      cartId: cart!.id,
      kind: "ticket",
      ticketTypeId: event.typeIds[1]!,
      quantity: 1,
      attendeeNames: ["Jo"],
    });

    const exported = await exportMemberData(db, buyer.id);

    expect(exported.orders).toEqual([
      expect.objectContaining({
        number: formatOrderNumber(order.number),
        status: "paid",
        email: buyer.email,
        total: 8700,
        items: [
          expect.objectContaining({ description: "Festival of Speed — Saturday day ticket", quantity: 2 }),
          expect.objectContaining({ description: "Festival of Speed — Weekend pass", attendeeNames: ["Sam Driver"] }),
        ],
        tickets: expect.arrayContaining([
          expect.objectContaining({
            event: "Festival of Speed",
            ticketType: "Weekend pass",
            attendeeName: "Sam Driver",
          }),
        ]),
        payments: [expect.objectContaining({ kind: "charge", status: "succeeded", amount: 8700 })],
      }),
    ]);
    const listed = (exported.orders as { tickets: { codeEnds: string }[] }[])[0]!.tickets;
    expect(listed).toHaveLength(3);
    expect(exported.cart).toEqual([
      expect.objectContaining({ event: "Festival of Speed", ticketType: "Weekend pass", attendeeNames: ["Jo"] }),
    ]);

    // A ticket's code lets its holder in: the orders part carries only its end, as staff see it
    // (the order email itself, with the codes, is in "messages", as it is in the member's inbox).
    const codes = await db.select({ code: tickets.code }).from(tickets).where(eq(tickets.orderId, order.id));
    const text = JSON.stringify(exported.orders);
    for (const { code } of codes) {
      expect(text).not.toContain(code);
      expect(text).not.toContain(formatTicketCode(code));
      expect(listed.map((ticket) => ticket.codeEnds)).toContain(code.slice(-4));
    }
    // Covered by their own sections, so the catch-all does not list the raw rows again.
    expect(exported.otherRecords).not.toHaveProperty("orders");
    expect(exported.otherRecords).not.toHaveProperty("tickets");
    expect(exported.otherRecords).not.toHaveProperty("carts");
  });
});

describe("deleting an account anonymises its orders", () => {
  it("keeps the money record and removes the email, the attendee names and the emails sent", async () => {
    const { db } = database();
    const { buyer, order } = await buyerWithOrder("Sam Driver");
    const other = await buyerWithOrder("Olly Other");
    // The member changed their address after ordering, and was sent a refund notice there too.
    const newAddress = `renamed-${buyer.id}@example.test`;
    await db.update(users).set({ email: newAddress }).where(eq(users.id, buyer.id));
    await db.insert(outboundMessages).values([
      { channel: "email", to: buyer.email, subject: "Refund for your order", text: "Sam Driver", transport: "mailbox" },
      { channel: "email", to: newAddress, subject: "Welcome back", text: "Hello", transport: "mailbox" },
    ]);
    const [chargeBefore] = await db.select().from(transactions).where(eq(transactions.orderId, order.id));

    expect(await deleteMemberAccount(db, buyer.id)).toMatchObject({ email: newAddress });

    const [kept] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(kept).toMatchObject({
      number: order.number,
      userId: buyer.id,
      email: deletedMemberEmail(buyer.id),
      status: "paid",
      total: 8700,
      currency: "GBP",
    });
    const lines = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(lines.map((line) => [line.description, line.quantity, line.unitPrice, line.attendeeNames])).toEqual(
      expect.arrayContaining([
        ["Festival of Speed — Saturday day ticket", 2, 2400, []],
        ["Festival of Speed — Weekend pass", 1, 3900, []],
      ]),
    );
    const issued = await db.select().from(tickets).where(eq(tickets.orderId, order.id));
    expect(issued).toHaveLength(3);
    expect(issued.every((ticket) => ticket.attendeeName === null && ticket.status === "valid")).toBe(true);
    expect(await db.select().from(transactions).where(eq(transactions.orderId, order.id))).toEqual([chargeBefore]);
    // The record that the confirmation went out stays; the message itself does not.
    expect(await db.select().from(orderEmails).where(eq(orderEmails.orderId, order.id))).toEqual([
      expect.objectContaining({ kind: "confirmation", messageId: null }),
    ]);
    const left = await db
      .select({ id: outboundMessages.id })
      .from(outboundMessages)
      .where(inArray(outboundMessages.to, [buyer.email, newAddress]));
    expect(left).toEqual([]);
    expect(await db.select().from(carts).where(eq(carts.userId, buyer.id))).toEqual([]);

    // Someone else's order is untouched.
    const [theirs] = await db.select().from(orders).where(eq(orders.id, other.order.id));
    expect(theirs!.email).toBe(other.buyer.email);
    const theirTickets = await db
      .select({ name: tickets.attendeeName })
      .from(tickets)
      .where(eq(tickets.orderId, other.order.id));
    expect(theirTickets.map((ticket) => ticket.name)).toContain("Olly Other");
    const theirMail = await db.select().from(outboundMessages).where(eq(outboundMessages.to, other.buyer.email));
    expect(theirMail).toHaveLength(1);
  });

  it("leaves mail to an address another account uses now, but not the order's own email", async () => {
    const { db } = database();
    const { buyer, order } = await buyerWithOrder();
    // The member moved to a new address and someone else signed up with the old one since.
    await db
      .update(users)
      .set({ email: `moved-${buyer.id}@example.test` })
      .where(eq(users.id, buyer.id));
    const [newcomer] = await createBuyers(db, 1);
    await db.update(users).set({ email: buyer.email }).where(eq(users.id, newcomer!.id));
    await db
      .insert(outboundMessages)
      .values({ channel: "email", to: buyer.email, subject: "Welcome", text: "Hi", transport: "mailbox" });

    await deleteMemberAccount(db, buyer.id);

    const left = await db
      .select({ subject: outboundMessages.subject })
      .from(outboundMessages)
      .where(eq(outboundMessages.to, buyer.email));
    expect(left).toEqual([{ subject: "Welcome" }]);
    const [kept] = await db.select({ email: orders.email }).from(orders).where(eq(orders.id, order.id));
    expect(kept!.email).toBe(deletedMemberEmail(buyer.id));
  });
});
