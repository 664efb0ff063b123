import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findCart } from "~/features/cart/cart.server";
import { checkoutFor, createBuyers, fillCart, NOW, paidInFull } from "~/features/checkout/stock.test-support";
import { ticketSalesState } from "~/features/events/sales";
import { refundOrder, settleOrder, startCheckout } from "~/features/selling/selling.server";
import { checkInTicket } from "~/features/tickets/check-in.server";
import { readTicketStock } from "~/features/tickets/ticket-stock.server";
import { claimOffer, joinWaitingList } from "~/features/waiting-lists/waiting-lists.server";
import { runListsAt } from "~/features/waiting-lists/waiting-lists.test-support";
import type { Db } from "~/server/db/client.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import {
  auditLog,
  events,
  ticketHandBacks,
  tickets,
  ticketTransfers,
  ticketTypes,
  transactions,
  users,
  waitingListEntries,
} from "../../../db/schema";
import { handBackTicket, settleHandBacks, withdrawHandBack } from "./hand-backs.server";
import { acceptTransfer, cancelTransfer, passingOnForTickets, sendTransfer, transferByToken } from "./transfers.server";
import { BRAND, soldOutWithHolder, tokenOf } from "./transfers.test-support";

const database = freshDatabasePerFile();
const hours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);

async function ticketRow(db: Db, id: string) {
  const [row] = await db.select().from(tickets).where(eq(tickets.id, id));
  return row!;
}

async function send(db: Db, from: { id: string }, ticketId: string, toEmail = "sam@example.test", now = NOW) {
  return sendTransfer(db, { userId: from.id, ticketId, toName: "Sam Driver", toEmail, now, brand: BRAND });
}

describe("sending a ticket to someone", () => {
  it("moves it on acceptance: the old code is refused as transferred, the new one admits", async () => {
    const { db } = database();
    const { eventId, holder, tickets: held } = await soldOutWithHolder(db);
    const [sam] = await createBuyers(db, 1);
    const sent = await send(db, holder, held[0]!.id);
    expect(sent.ok).toBe(true);
    if (!sent.ok) return;
    expect(sent.email.to).toBe("sam@example.test");
    const token = tokenOf(sent.email);
    // Until accepted it stays the sender's, valid.
    expect((await ticketRow(db, held[0]!.id)).status).toBe("valid");
    expect(await transferByToken(db, { token, viewerId: null, now: hours(1) })).toMatchObject({
      status: "pending",
      ticketTypeName: "Paddock",
      toName: "Sam Driver",
    });

    const accepted = await acceptTransfer(db, { token, userId: sam!.id, now: hours(1), brand: BRAND });
    expect(accepted).toMatchObject({ ok: true });
    if (!accepted.ok) return;
    expect(accepted.email?.to).toBe(holder.email);

    const old = await ticketRow(db, held[0]!.id);
    expect(old.status).toBe("transferred");
    const [fresh] = await db.select().from(tickets).where(eq(tickets.userId, sam!.id));
    expect(fresh).toMatchObject({
      status: "valid",
      transfers: 1,
      orderId: old.orderId,
      attendeeName: expect.any(String),
    });
    expect(fresh!.code).not.toBe(old.code);

    const steward = holder.id;
    expect(await checkInTicket(db, { code: old.code, eventId, staffId: steward, now: hours(2) })).toMatchObject({
      kind: "not_valid",
      status: "transferred",
    });
    expect(await checkInTicket(db, { code: fresh!.code, eventId, staffId: steward, now: hours(2) })).toMatchObject({
      kind: "checked_in",
    });
    // Every step is in the audit log.
    const actions = (await db.select({ action: auditLog.action }).from(auditLog)).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(["ticket.transfer_sent", "ticket.transfer_accepted"]));
  });

  it("names the new ticket after the person who accepts it", async () => {
    const { db } = database();
    const { holder, tickets: held } = await soldOutWithHolder(db);
    const [sam] = await createBuyers(db, 1);
    await db.update(users).set({ name: "Sam Okafor" }).where(eq(users.id, sam!.id));
    const sent = await send(db, holder, held[0]!.id);
    if (!sent.ok) throw new Error(sent.message);
    await acceptTransfer(db, { token: tokenOf(sent.email), userId: sam!.id, now: hours(1), brand: BRAND });
    const [fresh] = await db.select().from(tickets).where(eq(tickets.userId, sam!.id));
    expect(fresh!.attendeeName).toBe("Sam Okafor");
  });

  it("can be cancelled while pending, after which the link no longer works", async () => {
    const { db } = database();
    const { holder, tickets: held } = await soldOutWithHolder(db);
    const [sam] = await createBuyers(db, 1);
    const sent = await send(db, holder, held[0]!.id);
    if (!sent.ok) throw new Error(sent.message);
    const [transfer] = await db.select().from(ticketTransfers).where(eq(ticketTransfers.ticketId, held[0]!.id));
    // Only the sender can cancel it.
    expect(await cancelTransfer(db, { userId: sam!.id, transferId: transfer!.id, now: hours(1) })).toBe(false);
    expect(await cancelTransfer(db, { userId: holder.id, transferId: transfer!.id, now: hours(1) })).toBe(true);
    expect(
      await acceptTransfer(db, { token: tokenOf(sent.email), userId: sam!.id, now: hours(2), brand: BRAND }),
    ).toEqual({ ok: false, message: "The sender took this ticket back." });
    expect((await ticketRow(db, held[0]!.id)).status).toBe("valid");
    // And the ticket can be sent again.
    expect(await send(db, holder, held[0]!.id, "sam@example.test", hours(3))).toMatchObject({ ok: true });
  });

  it("is refused for a ticket that is not the sender's, or twice at once, or to themselves", async () => {
    const { db } = database();
    const { holder, tickets: held } = await soldOutWithHolder(db);
    const [eve] = await createBuyers(db, 1);
    expect(await send(db, eve!, held[0]!.id)).toEqual({ ok: false, message: "This ticket is not yours to transfer." });
    expect(await send(db, holder, held[0]!.id, holder.email.toUpperCase())).toEqual({
      ok: false,
      message: "This ticket is already yours.",
    });
    expect((await send(db, holder, held[0]!.id)).ok).toBe(true);
    expect(await send(db, holder, held[0]!.id, "someone@example.test")).toEqual({
      ok: false,
      message: "This ticket is already on its way to someone. Cancel that first.",
    });
  });

  it("follows the organizer's rule: once per ticket, and not after the cut-off", async () => {
    const { db } = database();
    const { eventId, holder, tickets: held } = await soldOutWithHolder(db);
    await db.update(events).set({ transfers: "once" }).where(eq(events.id, eventId));
    const [sam, kit] = await createBuyers(db, 2);
    const sent = await send(db, holder, held[0]!.id);
    if (!sent.ok) throw new Error(sent.message);
    await acceptTransfer(db, { token: tokenOf(sent.email), userId: sam!.id, now: hours(1), brand: BRAND });
    const [samsTicket] = await db.select().from(tickets).where(eq(tickets.userId, sam!.id));
    expect(await send(db, sam!, samsTicket!.id, kit!.email)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/only once/),
    });

    // A transfer sent in time but accepted after the cut-off lapses.
    const late = await send(db, holder, held[1]!.id, kit!.email);
    if (!late.ok) throw new Error(late.message);
    const afterCutOff = new Date("2027-06-12T07:30:00Z");
    expect(
      await acceptTransfer(db, { token: tokenOf(late.email), userId: kit!.id, now: afterCutOff, brand: BRAND }),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/can no longer be passed on/) });
    const [lapsed] = await db.select().from(ticketTransfers).where(eq(ticketTransfers.toEmail, kit!.email));
    expect(lapsed!.status).toBe("lapsed");
    expect((await ticketRow(db, held[1]!.id)).status).toBe("valid");
  });

  it("cannot be accepted by its sender, nor twice", async () => {
    const { db } = database();
    const { holder, tickets: held } = await soldOutWithHolder(db);
    const [sam, kit] = await createBuyers(db, 2);
    const sent = await send(db, holder, held[0]!.id);
    if (!sent.ok) throw new Error(sent.message);
    const token = tokenOf(sent.email);
    expect(await acceptTransfer(db, { token, userId: holder.id, now: hours(1), brand: BRAND })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/You sent this ticket/),
    });
    expect((await acceptTransfer(db, { token, userId: sam!.id, now: hours(1), brand: BRAND })).ok).toBe(true);
    expect(await acceptTransfer(db, { token, userId: kit!.id, now: hours(1), brand: BRAND })).toEqual({
      ok: false,
      message: "This ticket was already accepted.",
    });
    expect(await acceptTransfer(db, { token: "not-a-token", userId: kit!.id, now: hours(1), brand: BRAND })).toEqual({
      ok: false,
      message: "This link is not valid.",
    });
    expect(await db.select().from(tickets).where(eq(tickets.userId, kit!.id))).toHaveLength(0);
  });

  it("leaves a refund of the order to the ticket the recipient holds now", async () => {
    const { db } = database();
    const { holder, orderId, tickets: held } = await soldOutWithHolder(db);
    const [sam] = await createBuyers(db, 1);
    const sent = await send(db, holder, held[0]!.id);
    if (!sent.ok) throw new Error(sent.message);
    await acceptTransfer(db, { token: tokenOf(sent.email), userId: sam!.id, now: hours(1), brand: BRAND });
    const refunded = await refundOrder(db, { orderId, actorId: null, reason: "Event moved", now: hours(2) });
    expect(refunded).toMatchObject({ ok: true, amount: 9000 });
    const statuses = (await db.select({ status: tickets.status }).from(tickets).where(eq(tickets.orderId, orderId)))
      .map((row) => row.status)
      .sort();
    expect(statuses).toEqual(["refunded", "refunded", "transferred"]);
  });
});

/** What the public can buy of the type now. */
async function publicState(db: Db, eventId: string, typeId: string, now: Date) {
  const stock = await readTicketStock(db, [eventId], now, { lock: false });
  return ticketSalesState(stock.events.get(eventId)!, stock.types.get(typeId)!, stock.typesOfEvent(eventId), now).kind;
}

async function buy(db: Db, buyer: { id: string; email: string }, typeId: string, now: Date) {
  const cartId = await fillCart(db, buyer.id, [{ ticketTypeId: typeId, quantity: 1 }]);
  const started = await startCheckout(db, checkoutFor(buyer, cartId, now));
  if (!started.ok) return started;
  return { ...started, settled: await settleOrder(db, paidInFull(started.order, now)) };
}

describe("handing a ticket back", () => {
  it("keeps it valid until a buyer takes the place; then refunds the holder less the fee and refuses the code", async () => {
    const { db } = database();
    const { eventId, typeId, holder, orderId, tickets: held } = await soldOutWithHolder(db);
    await db.update(events).set({ handBackFee: 250 }).where(eq(events.id, eventId));
    expect(await publicState(db, eventId, typeId, NOW)).toBe("sold_out");

    expect(await handBackTicket(db, { userId: holder.id, ticketId: held[0]!.id, now: NOW })).toEqual({ ok: true });
    expect(await handBackTicket(db, { userId: holder.id, ticketId: held[0]!.id, now: NOW })).toEqual({
      ok: false,
      message: "This ticket is already back on sale.",
    });
    expect((await ticketRow(db, held[0]!.id)).status).toBe("valid");
    expect(await publicState(db, eventId, typeId, hours(1))).not.toBe("sold_out");
    // Nothing is oversold, so the hand-back waits.
    expect(await settleHandBacks(db, hours(1))).toEqual([]);

    const [buyer] = await createBuyers(db, 1);
    const bought = await buy(db, buyer!, typeId, hours(1));
    expect(bought).toMatchObject({ ok: true, settled: { kind: "settled" } });
    const resold = await settleHandBacks(db, hours(1));
    expect(resold).toEqual([expect.objectContaining({ email: holder.email, refund: 4250, credit: 0 })]);

    expect((await ticketRow(db, held[0]!.id)).status).toBe("refunded");
    expect((await ticketRow(db, held[1]!.id)).status).toBe("valid");
    const [refund] = await db
      .select()
      .from(transactions)
      .where(and(eq(transactions.orderId, orderId), eq(transactions.kind, "refund")));
    expect(refund).toMatchObject({ amount: 4250, status: "pending" });
    const [type] = await db.select({ sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, typeId));
    expect(type!.sold).toBe(2);
    expect(await publicState(db, eventId, typeId, hours(2))).toBe("sold_out");
    const [handBack] = await db.select().from(ticketHandBacks).where(eq(ticketHandBacks.ticketId, held[0]!.id));
    expect(handBack).toMatchObject({ status: "sold", refunded: 4250 });
    const shown = await passingOnForTickets(db, { userId: holder.id, ticketIds: [held[0]!.id], now: hours(2) });
    expect(shown[held[0]!.id]?.handBack).toEqual({ status: "sold", refund: 4250 });
    expect(await checkInTicket(db, { code: held[0]!.code, eventId, staffId: holder.id, now: hours(3) })).toMatchObject({
      kind: "not_valid",
      status: "refunded",
    });
    // A second run finds nothing more to do.
    expect(await settleHandBacks(db, hours(2))).toEqual([]);
  });

  it("offers the place to the waiting list before the public", async () => {
    const { db } = database();
    const { eventId, typeId, holder, tickets: held } = await soldOutWithHolder(db);
    const [ann, pub] = await createBuyers(db, 2);
    await joinWaitingList(db, { userId: ann!.id, eventId, ticketTypeId: typeId, quantity: 1, now: NOW });
    await handBackTicket(db, { userId: holder.id, ticketId: held[0]!.id, now: hours(1) });
    // Set aside for the line: the public still sees it sold out.
    expect(await publicState(db, eventId, typeId, hours(1))).toBe("sold_out");
    expect(await buy(db, pub!, typeId, hours(1))).toMatchObject({ ok: false });
    const run = await runListsAt(db, hours(1));
    expect(run.offered).toBe(1);
    const [entry] = await db.select().from(waitingListEntries).where(eq(waitingListEntries.userId, ann!.id));
    expect((await claimOffer(db, { userId: ann!.id, entryId: entry!.id, now: hours(2) })).ok).toBe(true);
    const cartId = (await findCart(db, { userId: ann!.id }))!;
    const started = await startCheckout(db, checkoutFor(ann!, cartId, hours(2)));
    if (!started.ok) throw new Error(JSON.stringify(started.problems));
    expect((await settleOrder(db, paidInFull(started.order, hours(2)))).kind).toBe("settled");
    expect(await settleHandBacks(db, hours(2))).toHaveLength(1);
    expect((await ticketRow(db, held[0]!.id)).status).toBe("refunded");
  });

  it("can be taken off sale, but not while a buyer holds the place", async () => {
    const { db } = database();
    const { typeId, holder, tickets: held } = await soldOutWithHolder(db);
    await handBackTicket(db, { userId: holder.id, ticketId: held[0]!.id, now: NOW });
    expect(await withdrawHandBack(db, { userId: holder.id, ticketId: held[0]!.id, now: hours(1) })).toEqual({
      ok: true,
    });
    await handBackTicket(db, { userId: holder.id, ticketId: held[0]!.id, now: hours(1) });

    const [buyer] = await createBuyers(db, 1);
    const cartId = await fillCart(db, buyer!.id, [{ ticketTypeId: typeId, quantity: 1 }]);
    const started = await startCheckout(db, checkoutFor(buyer!, cartId, hours(2)));
    expect(started.ok).toBe(true);
    expect(await withdrawHandBack(db, { userId: holder.id, ticketId: held[0]!.id, now: hours(2) })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/Someone is buying this place/),
    });
    // Someone else's ticket is not theirs to take off sale.
    expect(await withdrawHandBack(db, { userId: buyer!.id, ticketId: held[0]!.id, now: hours(2) })).toEqual({
      ok: false,
      message: "This ticket is not on sale.",
    });
  });

  it("is refused when the event does not resell, or the ticket is on its way to someone", async () => {
    const { db } = database();
    const { eventId, holder, tickets: held } = await soldOutWithHolder(db);
    await send(db, holder, held[0]!.id);
    expect(await handBackTicket(db, { userId: holder.id, ticketId: held[0]!.id, now: NOW })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/Cancel the transfer first/),
    });
    await db.update(events).set({ handBackEnabled: false }).where(eq(events.id, eventId));
    expect(await handBackTicket(db, { userId: holder.id, ticketId: held[1]!.id, now: NOW })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/does not resell/),
    });
    // And a ticket on sale cannot be sent.
    await db.update(events).set({ handBackEnabled: true }).where(eq(events.id, eventId));
    await handBackTicket(db, { userId: holder.id, ticketId: held[1]!.id, now: NOW });
    expect(await send(db, holder, held[1]!.id, "kit@example.test")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/back on sale/),
    });
  });
});

it("a refund by staff of a ticket on sale ends its listing and gives its place back once", async () => {
  const { db } = database();
  const { typeId, holder, orderId, tickets: held } = await soldOutWithHolder(db);
  await handBackTicket(db, { userId: holder.id, ticketId: held[0]!.id, now: NOW });
  const soldNow = async () =>
    (await db.select({ sold: ticketTypes.sold }).from(ticketTypes).where(eq(ticketTypes.id, typeId)))[0]!.sold;
  expect(await soldNow()).toBe(1);
  expect(await refundOrder(db, { orderId, actorId: null, reason: "Cannot come", now: hours(1) })).toMatchObject({
    ok: true,
  });
  expect(await soldNow()).toBe(0);
  const [handBack] = await db.select().from(ticketHandBacks).where(eq(ticketHandBacks.ticketId, held[0]!.id));
  expect(handBack!.status).toBe("withdrawn");
  expect(await settleHandBacks(db, hours(1))).toEqual([]);
});

describe("the member's page", () => {
  it("says what each ticket can do and what is under way", async () => {
    const { db } = database();
    const { holder, tickets: held } = await soldOutWithHolder(db);
    await send(db, holder, held[0]!.id);
    await handBackTicket(db, { userId: holder.id, ticketId: held[1]!.id, now: NOW });
    const state = await passingOnForTickets(db, { userId: holder.id, ticketIds: held.map((t) => t.id), now: NOW });
    expect(state[held[0]!.id]).toMatchObject({ pending: { toName: "Sam Driver", toEmail: "sam@example.test" } });
    expect(state[held[1]!.id]).toMatchObject({ handBack: { status: "listed", refund: 4500 }, pending: null });
    // Someone else asking learns nothing of these tickets.
    const [eve] = await createBuyers(db, 1);
    expect(await passingOnForTickets(db, { userId: eve!.id, ticketIds: held.map((t) => t.id), now: NOW })).toEqual({});
  });
});

it("limits how many tickets a member sends in a day, cancelled ones included", async () => {
  const { db } = database();
  const { holder, tickets: held } = await soldOutWithHolder(db, 1);
  const ticketId = held[0]!.id;
  const pending = async () =>
    (
      await db
        .select({ id: ticketTransfers.id })
        .from(ticketTransfers)
        .where(and(eq(ticketTransfers.ticketId, ticketId), eq(ticketTransfers.status, "pending")))
    )[0]!.id;
  for (let sent = 0; sent < 10; sent++) {
    expect((await send(db, holder, ticketId, `friend-${sent}@example.test`, NOW)).ok).toBe(true);
    await cancelTransfer(db, { userId: holder.id, transferId: await pending(), now: NOW });
  }
  expect(await send(db, holder, ticketId, "eleventh@example.test", NOW)).toEqual({
    ok: false,
    message: "You have sent 10 tickets in a day, the most we allow. Try again in 24 hours.",
  });
});
