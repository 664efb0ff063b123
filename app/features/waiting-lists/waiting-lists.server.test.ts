import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findCart } from "~/features/cart/cart.server";
import {
  checkoutFor,
  createBuyers,
  createTestEvent,
  fillCart,
  NOW,
  paidInFull,
} from "~/features/checkout/stock.test-support";
import { ticketSalesState } from "~/features/events/sales";
import { refundOrder, settleOrder, startCheckout } from "~/features/selling/selling.server";
import { readTicketStock } from "~/features/tickets/ticket-stock.server";
import type { Db } from "~/server/db/client.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { auditLog, carts, events, orderItems, vouchers, waitingListEntries } from "../../../db/schema";
import {
  claimOffer,
  joinWaitingList,
  leaveWaitingList,
  moveInLine,
  waitingListPage,
  waitingListsOfMember,
} from "./waiting-lists.server";
import { joinInOrder, runListsAt } from "./waiting-lists.test-support";

const database = freshDatabasePerFile();
const hours = (n: number) => new Date(NOW.getTime() + n * 3_600_000);

/** A sold-out ticket type of `capacity` places, bought by one member in one paid order. */
async function soldOut(db: Db, capacity = 2) {
  const { eventId, typeIds } = await createTestEvent(db, { types: [{ name: "Paddock", capacity, maxPerOrder: 4 }] });
  const [holder] = await createBuyers(db, 1);
  const cartId = await fillCart(db, holder!.id, [{ ticketTypeId: typeIds[0]!, quantity: capacity }]);
  const started = await startCheckout(db, checkoutFor(holder!, cartId));
  if (!started.ok) throw new Error(JSON.stringify(started.problems));
  const settled = await settleOrder(db, paidInFull(started.order));
  expect(settled.kind).toBe("settled");
  return { eventId, typeId: typeIds[0]!, holder: holder!, orderId: started.order.id };
}

/** What the public sees of the ticket type: its state for a buyer with no code. */
async function publicState(db: Db, eventId: string, typeId: string, now: Date) {
  const stock = await readTicketStock(db, [eventId], now, { lock: false });
  return ticketSalesState(stock.events.get(eventId)!, stock.types.get(typeId)!, stock.typesOfEvent(eventId), now).kind;
}

async function statusOf(db: Db, entryId: string) {
  const [row] = await db
    .select({ status: waitingListEntries.status })
    .from(waitingListEntries)
    .where(eq(waitingListEntries.id, entryId));
  return row?.status;
}

/** Pays for what the member's cart holds now, as they would after claiming an offer. */
async function payForCart(db: Db, member: { id: string; email: string }, now: Date) {
  const cartId = (await findCart(db, { userId: member.id }))!;
  const started = await startCheckout(db, checkoutFor(member, cartId, now));
  if (!started.ok) return started;
  await settleOrder(db, paidInFull(started.order, now));
  return started;
}

describe("joining a waiting list", () => {
  it("takes a member for a sold-out ticket type, up to the order limit, once, and shows their place", async () => {
    const { db } = database();
    const { eventId, typeId } = await soldOut(db);
    const [ann, bob] = await createBuyers(db, 2);
    expect(
      await joinWaitingList(db, { userId: ann!.id, eventId, ticketTypeId: typeId, quantity: 2, now: NOW }),
    ).toEqual({ ok: true, name: "Paddock", position: 1 });
    expect(
      await joinWaitingList(db, { userId: bob!.id, eventId, ticketTypeId: typeId, quantity: 1, now: hours(1) }),
    ).toMatchObject({ ok: true, position: 2 });
    expect(
      await joinWaitingList(db, { userId: ann!.id, eventId, ticketTypeId: typeId, quantity: 1, now: hours(2) }),
    ).toMatchObject({ ok: false, message: "You are already on the waiting list for these tickets" });
    const [cat] = await createBuyers(db, 1);
    expect(
      await joinWaitingList(db, { userId: cat!.id, eventId, ticketTypeId: typeId, quantity: 5, now: NOW }),
    ).toMatchObject({ ok: false, field: "quantity", message: "Wait for at most 4 places" });
    const mine = await waitingListsOfMember(db, bob!.id, hours(2), "Europe/London");
    expect(mine).toMatchObject([{ itemName: "Paddock", unit: "place", quantity: 1, position: 2, offer: null }]);
  });

  it("is not for tickets on sale, nor once the list is switched off or has closed", async () => {
    const { db } = database();
    const { eventId, typeIds } = await createTestEvent(db, { types: [{ name: "Spectator", capacity: 10 }] });
    const [ann] = await createBuyers(db, 1);
    const join = (now = NOW) =>
      joinWaitingList(db, { userId: ann!.id, eventId, ticketTypeId: typeIds[0]!, quantity: 1, now });
    expect(await join()).toMatchObject({ ok: false, message: "These tickets are on sale: add them to your cart" });

    const full = await soldOut(db);
    await db.update(events).set({ waitingListEnabled: false }).where(eq(events.id, full.eventId));
    expect(
      await joinWaitingList(db, {
        userId: ann!.id,
        eventId: full.eventId,
        ticketTypeId: full.typeId,
        quantity: 1,
        now: NOW,
      }),
    ).toMatchObject({ ok: false, message: "This event has no waiting list" });
    await db.update(events).set({ waitingListEnabled: true }).where(eq(events.id, full.eventId));
    // The test event starts on 12 June 2027 at 09:00 UTC; the list closes 24 hours before.
    const closed = new Date("2027-06-11T09:00:00Z");
    expect(
      await joinWaitingList(db, {
        userId: ann!.id,
        eventId: full.eventId,
        ticketTypeId: full.typeId,
        quantity: 1,
        now: closed,
      }),
    ).toMatchObject({ ok: false, message: "The waiting list for this event has closed" });
  });
});

describe("places that come back", () => {
  it("go to the first in line, not the public: an offer, an email, a claim, a purchase", async () => {
    const { db } = database();
    const { eventId, typeId, orderId } = await soldOut(db, 2);
    const [ann, bob] = await createBuyers(db, 2);
    const [annEntry, bobEntry] = await joinInOrder(db, typeId, [ann!, bob!]);

    // One ticket is refunded: the place is set aside for the line, so the public still sees none.
    const refunded = await refundOrder(db, {
      orderId,
      actorId: null,
      reason: "Cannot come",
      now: hours(1),
      items: await itemsOf(db, orderId, 1),
    });
    expect(refunded.ok).toBe(true);
    expect(await publicState(db, eventId, typeId, hours(1))).toBe("sold_out");

    const run = await runListsAt(db, hours(1));
    expect(run).toMatchObject({ offered: 1, bought: 0, lapsed: 0 });
    expect(run.outbox.map((email) => email.subject)).toEqual([
      expect.stringMatching(/^Places for Test meet \d+ are yours to buy$/),
    ]);
    expect(run.outbox[0]!.text).toContain("1 place came back for Paddock");
    expect(run.outbox[0]!.text).toContain(`https://pitlane.test/members/offers/${annEntry!.id}`);
    expect(await statusOf(db, annEntry!.id)).toBe("offered");
    // Running again offers nobody twice.
    expect((await runListsAt(db, hours(1))).offered).toBe(0);

    // Ann claims: the place goes in her cart with her code, and she buys it at the usual price.
    expect(await claimOffer(db, { userId: ann!.id, entryId: annEntry!.id, now: hours(2) })).toEqual({
      ok: true,
      quantity: 1,
      name: "Paddock",
    });
    const paid = await payForCart(db, ann!, hours(2));
    expect(paid.ok && paid.order.total).toBe(1500);
    expect((await runListsAt(db, hours(3))).bought).toBe(1);
    expect(await statusOf(db, annEntry!.id)).toBe("bought");
    expect(await statusOf(db, bobEntry!.id)).toBe("waiting");
    expect(await waitingListsOfMember(db, bob!.id, hours(3), "Europe/London")).toMatchObject([{ position: 1 }]);
  });

  it("lapse when the offer ends unused, and go to the next in line", async () => {
    const { db } = database();
    const { eventId, typeId, orderId } = await soldOut(db, 1);
    const [ann, bob] = await createBuyers(db, 2);
    const [annEntry, bobEntry] = await joinInOrder(db, typeId, [ann!, bob!]);
    await refundOrder(db, { orderId, actorId: null, reason: "Cannot come", now: hours(1) });

    expect((await runListsAt(db, hours(1))).offered).toBe(1);
    expect(await waitingListsOfMember(db, ann!.id, hours(1), "Europe/London")).toMatchObject([
      { offer: { endsAt: hours(25).toISOString() } },
    ]);
    expect(await waitingListsOfMember(db, bob!.id, hours(1), "Europe/London")).toMatchObject([
      { position: 1, offer: null },
    ]);
    // Nobody else may use Ann's code, and the place is hers alone while it runs.
    expect(await publicState(db, eventId, typeId, hours(2))).toBe("sold_out");

    const later = await runListsAt(db, hours(25));
    expect(later).toMatchObject({ lapsed: 1, offered: 1 });
    expect(await statusOf(db, annEntry!.id)).toBe("lapsed");
    expect(await statusOf(db, bobEntry!.id)).toBe("offered");
    expect(await claimOffer(db, { userId: ann!.id, entryId: annEntry!.id, now: hours(25) })).toMatchObject({
      ok: false,
      message: "There is no offer for you on this list now",
    });
  });

  it("offered to someone who leaves go straight on to the next", async () => {
    const { db } = database();
    const { typeId, orderId } = await soldOut(db, 1);
    const [ann, bob] = await createBuyers(db, 2);
    const [annEntry, bobEntry] = await joinInOrder(db, typeId, [ann!, bob!]);
    await refundOrder(db, { orderId, actorId: null, reason: "Cannot come", now: hours(1) });
    await runListsAt(db, hours(1));
    expect(await leaveWaitingList(db, { userId: bob!.id, entryId: annEntry!.id, now: hours(2) })).toBe(false);
    expect(await leaveWaitingList(db, { userId: ann!.id, entryId: annEntry!.id, now: hours(2) })).toBe(true);
    expect((await runListsAt(db, hours(2))).offered).toBe(1);
    expect(await statusOf(db, bobEntry!.id)).toBe("offered");
  });

  it("cannot be bought with someone else's offer", async () => {
    const { db } = database();
    const { typeId, orderId } = await soldOut(db, 1);
    const [ann, eve] = await createBuyers(db, 2);
    const [annEntry] = await joinInOrder(db, typeId, [ann!]);
    await refundOrder(db, { orderId, actorId: null, reason: "Cannot come", now: hours(1) });
    await runListsAt(db, hours(1));
    const [entry] = await db
      .select({ voucherId: waitingListEntries.offerVoucherId })
      .from(waitingListEntries)
      .where(eq(waitingListEntries.id, annEntry!.id));
    const cartId = await fillCart(db, eve!.id, [{ ticketTypeId: typeId, quantity: 1 }]);
    await db.update(carts).set({ voucherId: entry!.voucherId }).where(eq(carts.id, cartId));
    const started = await startCheckout(db, checkoutFor(eve!, cartId, hours(2)));
    expect(started.ok).toBe(false);
    expect(!started.ok && started.problems.map((problem) => problem.message)).toContain(
      `The code ${await codeOf(db, entry!.voucherId!)} is for another member. Remove the code to pay without it.`,
    );
  });

  it("are offered to whoever fits when the first in line waits for more", async () => {
    const { db } = database();
    const { typeId, orderId } = await soldOut(db, 4);
    const [ann, bob] = await createBuyers(db, 2);
    const [annEntry] = await joinInOrder(db, typeId, [ann!], { quantity: 3 });
    const [bobEntry] = await joinInOrder(db, typeId, [bob!], { quantity: 1, from: new Date("2027-04-02T00:00:00Z") });
    await refundOrder(db, {
      orderId,
      actorId: null,
      reason: "Two cannot come",
      now: hours(1),
      items: await itemsOf(db, orderId, 2),
    });
    expect((await runListsAt(db, hours(1))).offered).toBe(1);
    expect(await statusOf(db, annEntry!.id)).toBe("waiting");
    expect(await statusOf(db, bobEntry!.id)).toBe("offered");
  });
});

describe("the organizer's list", () => {
  it("shows the line with what it could sell, and moves someone up with the reason audited", async () => {
    const { db } = database();
    const { eventId, typeId } = await soldOut(db, 1);
    const [admin, ann, bob, cat] = await createBuyers(db, 4);
    const [annEntry, bobEntry, catEntry] = await joinInOrder(db, typeId, [ann!, bob!, cat!], { quantity: 2 });
    const page = await waitingListPage(db, eventId, NOW);
    expect(page).toMatchObject({ couldSell: 6, running: true, settings: { enabled: true, offerHours: 24 } });
    expect(page!.lists[0]!.entries.map((entry) => entry.position)).toEqual([1, 2, 3]);

    const moved = await moveInLine(db, {
      eventId,
      entryId: catEntry!.id,
      position: 1,
      reason: "Volunteer marshal",
      actorId: admin!.id,
      now: NOW,
    });
    expect(moved).toMatchObject({ ok: true, position: 1 });
    const after = await waitingListPage(db, eventId, NOW);
    expect(after!.lists[0]!.entries.map((entry) => entry.id)).toEqual([catEntry!.id, annEntry!.id, bobEntry!.id]);
    const [audit] = await db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, "waiting_list.move"), eq(auditLog.subjectId, catEntry!.id)));
    expect(audit!.details).toMatchObject({ from: 3, to: 1, reason: "Volunteer marshal" });
    expect(
      await moveInLine(db, { eventId, entryId: catEntry!.id, position: 2, reason: "x", actorId: admin!.id, now: NOW }),
    ).toMatchObject({ ok: false, field: "position" });
  });
});

async function codeOf(db: Db, voucherId: string) {
  const [row] = await db.select({ code: vouchers.code }).from(vouchers).where(eq(vouchers.id, voucherId));
  return row!.code;
}

async function itemsOf(db: Db, orderId: string, quantity: number) {
  const [item] = await db.select({ id: orderItems.id }).from(orderItems).where(eq(orderItems.orderId, orderId));
  return [{ orderItemId: item!.id, quantity }];
}
