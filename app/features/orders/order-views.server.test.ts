import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyers, createTestEvent } from "~/features/checkout/stock.test-support";
import { verifySignedTicketCode } from "~/features/tickets/ticket-codes.server";
import { statementsSent } from "~/server/db/statements-sent.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { tickets, transactions } from "../../../db/schema";
import { orderForBuyer, orderForConfirmation, ordersForMember, ticketsForMember } from "./order-views.server";
import { festivalOfSpeed, ORDER_ENV, paidOrder } from "./paid-orders.test-support";

const database = freshDatabasePerFile();
const { AUTH_SECRET: secret, TIME_ZONE: siteTimeZone } = ORDER_ENV;

/** Counts the statements a call sends, on whichever engine the file runs. */
async function countQueries<T>(work: () => Promise<T>) {
  const { result, statements } = await statementsSent(database(), work);
  return { result, queries: statements.length };
}

const festival = () =>
  festivalOfSpeed(database().db, {
    startsAt: new Date("2027-06-12T08:00:00Z"),
    endsAt: new Date("2027-06-13T17:00:00Z"),
  });

describe("orderForBuyer", () => {
  it("shows the owner their order with items, signed tickets, totals and the charge", async () => {
    const { db } = database();
    const event = await festival();
    const [buyer] = await createBuyers(db, 1);
    const order = await paidOrder(db, buyer!, [
      { ticketTypeId: event.typeIds[0]!, quantity: 2 },
      { ticketTypeId: event.typeIds[1]!, quantity: 1, attendeeNames: ["Sam Driver"] },
    ]);

    // The order, its lines and its tickets in one statement; its payments in another.
    const { result: view, queries } = await countQueries(() =>
      orderForBuyer(db, { orderId: order.id, userId: buyer!.id, secret, siteTimeZone }),
    );
    expect(queries).toBe(2);
    expect(view).not.toBeNull();
    expect(view!.number).toMatch(/^PL-\d{6}$/);
    expect(view!.status).toBe("paid");
    expect(view!.total).toBe(2 * 2400 + 3900);
    expect(view!.items.map((item) => [item.description, item.quantity, item.lineTotal])).toEqual([
      ["Festival of Speed — Saturday day ticket", 2, 4800],
      ["Festival of Speed — Weekend pass", 1, 3900],
    ]);
    expect(view!.tickets.map((ticket) => ticket.ticketTypeName)).toEqual([
      "Saturday day ticket",
      "Saturday day ticket",
      "Weekend pass",
    ]);
    const pass = view!.tickets[2]!;
    expect(pass.attendeeName).toBe("Sam Driver");
    expect(pass.validDays).toEqual([]);
    expect(view!.tickets[0]!.validDays).toEqual(["Sat 12 June"]);
    expect(pass.event).toMatchObject({ title: "Festival of Speed", dates: "Sat 12 – Sun 13 June 2027", zone: "BST" });
    expect(pass.statusLabel).toBe("Valid");
    // The QR carries the ticket's own code, signed: check-in accepts it.
    const [stored] = await db.select({ code: tickets.code }).from(tickets).where(eq(tickets.id, pass.id));
    expect(verifySignedTicketCode(pass.qrPayload!, secret)).toBe(stored!.code);
    expect(pass.shortCode.replaceAll(" ", "")).toBe(stored!.code);
    expect(view!.transactions).toEqual([
      expect.objectContaining({ kind: "charge", status: "succeeded", amount: 8700 }),
    ]);

    // The confirmation email reads the same, without the payments, in one statement.
    const confirmation = await countQueries(() =>
      orderForConfirmation(db, { orderId: order.id, secret, siteTimeZone }),
    );
    expect(confirmation.queries).toBe(1);
    const { transactions: _payments, ...shown } = view!;
    expect(confirmation.result).toEqual(shown);
  });

  it("finds nothing for another member's order, a made-up id or a malformed one", async () => {
    const { db } = database();
    const event = await festival();
    const [owner, other] = await createBuyers(db, 2);
    const order = await paidOrder(db, owner!, [{ ticketTypeId: event.typeIds[0]!, quantity: 1 }]);
    expect(await orderForBuyer(db, { orderId: order.id, userId: other!.id, secret, siteTimeZone })).toBeNull();
    expect(
      await orderForBuyer(db, {
        orderId: "00000000-0000-4000-8000-000000000000",
        userId: owner!.id,
        secret,
        siteTimeZone,
      }),
    ).toBeNull();
    expect(await orderForBuyer(db, { orderId: "1 or 1=1", userId: owner!.id, secret, siteTimeZone })).toBeNull();
  });

  it("gives refunded tickets no QR code", async () => {
    const { db } = database();
    const event = await festival();
    const [buyer] = await createBuyers(db, 1);
    const order = await paidOrder(db, buyer!, [{ ticketTypeId: event.typeIds[0]!, quantity: 2 }]);
    const [first] = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.orderId, order.id)).limit(1);
    await db.update(tickets).set({ status: "refunded" }).where(eq(tickets.id, first!.id));
    const view = await orderForBuyer(db, { orderId: order.id, userId: buyer!.id, secret, siteTimeZone });
    const refunded = view!.tickets.find((ticket) => ticket.id === first!.id)!;
    expect(refunded).toMatchObject({ statusLabel: "Refunded", qrPayload: null });
    expect(view!.tickets.filter((ticket) => ticket.qrPayload)).toHaveLength(1);
  });
});

describe("ticketsForMember", () => {
  it("groups tickets by event, upcoming soonest first with QR codes, past ones without", async () => {
    const { db } = database();
    const early = await createTestEvent(db, {
      title: "Spring Sunday Meet",
      startsAt: new Date("2027-05-20T09:00:00Z"),
      endsAt: new Date("2027-05-20T15:00:00Z"),
      types: [{ name: "Entry", price: 500 }],
    });
    const late = await festival();
    const later = await createTestEvent(db, {
      title: "Autumn Cruise",
      startsAt: new Date("2027-09-04T09:00:00Z"),
      endsAt: new Date("2027-09-04T15:00:00Z"),
      types: [{ name: "Driver", price: 1000 }],
    });
    const [buyer, other] = await createBuyers(db, 2);
    await paidOrder(db, buyer!, [
      { ticketTypeId: later.typeIds[0]!, quantity: 1 },
      { ticketTypeId: early.typeIds[0]!, quantity: 2 },
    ]);
    await paidOrder(db, buyer!, [{ ticketTypeId: late.typeIds[0]!, quantity: 3 }]);
    await paidOrder(db, other!, [{ ticketTypeId: late.typeIds[0]!, quantity: 1 }]);

    const { result, queries } = await countQueries(() =>
      ticketsForMember(db, { userId: buyer!.id, now: new Date("2027-06-01T00:00:00Z"), secret }),
    );
    expect(queries).toBe(1);
    expect(result.upcoming.map((group) => [group.event.title, group.tickets.length])).toEqual([
      ["Festival of Speed", 3],
      ["Autumn Cruise", 1],
    ]);
    expect(result.past.map((group) => [group.event.title, group.tickets.length])).toEqual([["Spring Sunday Meet", 2]]);
    expect(result.upcoming.flatMap((group) => group.tickets).every((ticket) => ticket.qrPayload)).toBe(true);
    expect(result.past[0]!.tickets.every((ticket) => ticket.qrPayload === null)).toBe(true);

    const none = await ticketsForMember(db, { userId: (await createBuyers(db, 1))[0]!.id, now: new Date(), secret });
    expect(none).toEqual({ upcoming: [], past: [] });
  });
});

describe("ordersForMember", () => {
  it("lists the member's settled orders and refunds newest first in two queries", async () => {
    const { db } = database();
    const event = await festival();
    const [buyer, other] = await createBuyers(db, 2);
    const first = await paidOrder(db, buyer!, [{ ticketTypeId: event.typeIds[0]!, quantity: 1 }]);
    const second = await paidOrder(
      db,
      buyer!,
      [
        { ticketTypeId: event.typeIds[0]!, quantity: 2 },
        { ticketTypeId: event.typeIds[1]!, quantity: 1, attendeeNames: ["Alex Racer"] },
      ],
      new Date("2027-05-02T10:00:00Z"),
    );
    await paidOrder(db, other!, [{ ticketTypeId: event.typeIds[0]!, quantity: 1 }]);
    const [charge] = await db
      .select({ id: transactions.id })
      .from(transactions)
      .where(eq(transactions.orderId, second.id));
    await db.insert(transactions).values({
      orderId: second.id,
      kind: "refund",
      status: "succeeded",
      amount: 2400,
      currency: "GBP",
      provider: "test",
      chargeId: charge!.id,
      reason: "One day ticket returned",
      completedAt: new Date("2027-05-03T10:00:00Z"),
    });

    const { result, queries } = await countQueries(() => ordersForMember(db, { userId: buyer!.id, siteTimeZone }));
    expect(queries).toBe(2);
    expect(result.orders.map((order) => order.id)).toEqual([second.id, first.id]);
    expect(result.orders[0]).toMatchObject({
      total: 8700,
      refunded: 2400,
      refundPending: 0,
      summary: "Festival of Speed — Saturday day ticket and 1 more",
      statusLabel: "Paid",
    });
    expect(result.orders[1]).toMatchObject({
      total: 2400,
      refunded: 0,
      summary: "Festival of Speed — Saturday day ticket",
    });
    expect(result.refunds).toEqual([
      expect.objectContaining({
        orderId: second.id,
        amount: 2400,
        status: "succeeded",
        reason: "One day ticket returned",
      }),
    ]);
  });
});
