import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyers, createTestEvent } from "~/features/checkout/stock.test-support";
import { admitAtGate, gateCounts, listAttendees } from "~/features/gate/gate.server";
import { soldDayTickets } from "~/features/gate/gate.test-support";
import { gateTime, NOT_A_TICKET } from "~/features/gate/offline-rules";
import { issueMembership } from "~/features/membership/memberships.server";
import { createTestTier } from "~/features/membership/tiers.test-support";
import { refundOrder } from "~/features/selling/selling.server";
import { formatTicketCode, signTicketCode } from "~/features/tickets/ticket-codes.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { events, memberships, orders, tickets, users } from "../../../db/schema";

const database = freshDatabasePerFile();
const secret = "gate-secret-gate-secret-gate-secret-0123";
// 10:42 in London in summer.
const at = new Date("2027-06-12T09:42:00Z");

const soldTickets = (quantity: number, title?: string) => soldDayTickets(database().db, quantity, { title });

describe("admitAtGate", () => {
  it("admits once, then says when and by whom; typed codes work too", async () => {
    const { db } = database();
    const sold = await soldTickets(2);
    const [steward] = await db.insert(users).values({ id: "sam", name: "Sam", email: "sam@example.test" }).returning();
    const gate = { eventId: sold.eventId, staffId: steward!.id, secret, now: at };

    const scanned = await admitAtGate(db, { ...gate, value: signTicketCode(sold.codes[0]!, secret) });
    expect(scanned).toEqual({
      tone: "admitted",
      headline: `Checked in: ${sold.buyerName}, Day ticket`,
      detail: null,
      buyerId: sold.buyerId,
    });
    const again = await admitAtGate(db, { ...gate, value: signTicketCode(sold.codes[0]!, secret) });
    expect(again).toMatchObject({ tone: "warning", headline: "Already checked in at 10:42 by Sam" });

    const typed = await admitAtGate(db, { ...gate, value: formatTicketCode(sold.codes[1]!).toLowerCase() });
    expect(typed.tone).toBe("admitted");
    expect(await gateCounts(db, sold.eventId)).toEqual({ checkedIn: 2, inside: 2, sold: 2 });

    const list = await listAttendees(db, { eventId: sold.eventId, timeZone: "Europe/London", now: at, q: "sam" });
    expect(list).toEqual([]);
    const all = await listAttendees(db, { eventId: sold.eventId, timeZone: "Europe/London", now: at });
    expect(all.map((row) => [row.status, row.checkedInAt, row.checkedInBy])).toEqual([
      ["checked_in", "10:42", "Sam"],
      ["checked_in", "10:42", "Sam"],
    ]);
    const byCode = await listAttendees(db, {
      eventId: sold.eventId,
      timeZone: "Europe/London",
      now: at,
      q: sold.codes[1]!.slice(-4),
    });
    expect(byCode.map((row) => row.codeEnd)).toContain(sold.codes[1]!.slice(-4));
    // A supervisor finds a holder by the order number they read out: PL-000123, or just 123.
    const [{ number }] = (await db
      .select({ number: orders.number })
      .from(orders)
      .where(eq(orders.id, sold.orderId))) as [{ number: number }];
    for (const q of [`PL-${String(number).padStart(6, "0")}`, `pl ${number}`]) {
      const byOrder = await listAttendees(db, { eventId: sold.eventId, timeZone: "Europe/London", now: at, q });
      expect(byOrder.map((row) => row.order)).toEqual([
        `PL-${String(number).padStart(6, "0")}`,
        `PL-${String(number).padStart(6, "0")}`,
      ]);
    }
  });

  it("finds % and _ in the search as those characters, never as wildcards", async () => {
    const { db } = database();
    const sold = await soldTickets(3);
    const names = ["Jo_Bloggs", "Jo Bloggs", "100% Petrol"];
    for (const [index, code] of sold.codes.entries()) {
      await db.update(tickets).set({ attendeeName: names[index] }).where(eq(tickets.code, code));
    }
    const find = async (q: string) =>
      (await listAttendees(db, { eventId: sold.eventId, timeZone: "Europe/London", now: at, q }))
        .map((row) => row.name)
        .sort();
    expect(await find("_")).toEqual(["Jo_Bloggs"]);
    expect(await find("o_b")).toEqual(["Jo_Bloggs"]);
    expect(await find("%")).toEqual(["100% Petrol"]);
    expect(await find("#")).toEqual([]);
  });

  it("refuses refunded tickets, other events' tickets and forged or garbled codes", async () => {
    const { db } = database();
    const sold = await soldTickets(1);
    const other = await soldTickets(1, "Brooklands Night");
    const [steward] = await createBuyers(db, 1);
    const gate = { eventId: sold.eventId, staffId: steward!.id, secret, now: at };

    expect(await admitAtGate(db, { ...gate, value: signTicketCode(other.codes[0]!, secret) })).toMatchObject({
      tone: "refused",
      headline: "This ticket is for Brooklands Night",
    });
    const forged = `${sold.codes[0]}.${"A".repeat(26)}`;
    expect(await admitAtGate(db, { ...gate, value: forged })).toMatchObject({ headline: NOT_A_TICKET });
    expect(await admitAtGate(db, { ...gate, value: "hello" })).toMatchObject({ headline: NOT_A_TICKET });
    expect(await admitAtGate(db, { ...gate, value: "0".repeat(26) })).toMatchObject({ headline: NOT_A_TICKET });

    await refundOrder(db, { orderId: sold.orderId, actorId: null, reason: "Asked", now: at });
    expect(await admitAtGate(db, { ...gate, value: sold.codes[0]! })).toMatchObject({
      tone: "refused",
      headline: "This ticket was refunded",
    });
    expect(await gateCounts(db, sold.eventId)).toEqual({ checkedIn: 0, inside: 0, sold: 0 });
  });
});

describe("gateTime", () => {
  it("shows the event's local time, with the day when it was not today", () => {
    expect(gateTime(at, "Europe/London", at)).toBe("10:42");
    expect(gateTime(at, "Europe/London", new Date("2027-06-13T09:00:00Z"))).toBe("Sat 12 Jun, 10:42");
  });
});

describe("a member card at the gate", () => {
  it("lets a valid member into a members' event once, and nowhere else; a lapsed card is refused", async () => {
    const { db } = database();
    const tier = await createTestTier(db, { name: "Family", people: 3 });
    const [holder, lapsedHolder] = await createBuyers(db, 2);
    await issueMembership(db, {
      userId: holder!.id,
      tier,
      people: ["Alex"],
      orderId: null,
      paidPence: 3000,
      paidAt: at,
    });
    const [card] = await db.select().from(memberships).where(eq(memberships.userId, holder!.id));
    const [steward] = await db.insert(users).values({ id: "kim", name: "Kim", email: "kim@example.test" }).returning();
    const meet = await createTestEvent(db, { title: "Members' meet", types: [{ name: "Day ticket" }] });
    await db.update(events).set({ membersEvent: true }).where(eq(events.id, meet.eventId));
    const show = await createTestEvent(db, { title: "Open show", types: [{ name: "Day ticket" }] });
    const [named] = await db.select({ name: users.name }).from(users).where(eq(users.id, holder!.id));
    const value = signTicketCode(card!.cardCode, secret);

    const atMeet = { eventId: meet.eventId, staffId: steward!.id, secret, now: at, value };
    expect(await admitAtGate(db, atMeet)).toEqual({
      tone: "admitted",
      headline: `Member: ${named!.name}, Family`,
      detail: "Also covers Alex",
    });
    expect(await admitAtGate(db, atMeet)).toMatchObject({
      tone: "warning",
      headline: "Already checked in at 10:42 by Kim",
    });
    expect(await admitAtGate(db, { ...atMeet, eventId: show.eventId })).toMatchObject({
      tone: "refused",
      headline: "Member, not valid for entry",
    });

    // Paid until a year ago and never renewed: lapsed.
    await issueMembership(db, {
      userId: lapsedHolder!.id,
      tier,
      people: [],
      orderId: null,
      paidPence: 3000,
      paidAt: new Date(at.getTime() - 400 * 24 * 60 * 60 * 1000),
    });
    const [old] = await db.select().from(memberships).where(eq(memberships.userId, lapsedHolder!.id));
    expect(await admitAtGate(db, { ...atMeet, value: signTicketCode(old!.cardCode, secret) })).toMatchObject({
      tone: "refused",
      headline: "Membership lapsed",
    });
  });
});
