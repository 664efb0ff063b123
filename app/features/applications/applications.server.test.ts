import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutFor, createBuyers, paidInFull } from "~/features/checkout/stock.test-support";
import { admitAtGate } from "~/features/gate/gate.server";
import { refundEventHolders } from "~/features/orders/bulk-refunds.server";
import { orderEmail } from "~/features/orders/order-email.server";
import { orderForBuyer } from "~/features/orders/order-views.server";
import { refundOrder, settleOrder, startCheckout } from "~/features/selling/selling.server";
import { verifySignedTicketCode } from "~/features/tickets/ticket-codes.server";
import type { Db } from "~/server/db/client.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { auditLog, cartItems, exhibitorPasses, orderItems, showCarApplications } from "../../../db/schema";
import { decisionEmail } from "./application-emails.server";
import { APPLY_NOW, createApplicationEvent, createMembersWithCars, DEADLINE } from "./applications.test-support";
import { applyWithCar, withdrawApplication } from "./apply.server";
import { decideApplication } from "./decide.server";
import { addFeeToCart } from "./fees.server";
import { applicationsOfMember, carsToApplyWith } from "./member-queries.server";
import { checkInPass } from "./passes.server";
import { applicationsOfEvent } from "./review-queries.server";

const database = freshDatabasePerFile();
const now = APPLY_NOW;
const SECRET = "test-secret-test-secret-test-secret-0123";

async function staff(db: Db) {
  const [member] = await createBuyers(db, 1);
  return member!.id;
}

/** The member applies to the event with their own car. */
const applyWithOwnCar = (db: Db, member: { id: string; carId: string }, eventId: string, note = "") =>
  applyWithCar(db, { userId: member.id, eventId, carId: member.carId, note, now });

async function applied(db: Db, settings: Parameters<typeof createApplicationEvent>[1] = {}) {
  const event = await createApplicationEvent(db, settings);
  const [member] = await createMembersWithCars(db, 1);
  const result = await applyWithOwnCar(db, member!, event.eventId, "  Original paint, 40k miles  ");
  if (!result.ok) throw new Error(result.message);
  return { event, member: member!, applicationId: result.applicationId };
}

async function statusOf(db: Db, id: string) {
  const [row] = await db.select().from(showCarApplications).where(eq(showCarApplications.id, id));
  return row!;
}

describe("applying", () => {
  it("applies with the member's own car, once per car per event", async () => {
    const { db } = database();
    const { event, member, applicationId } = await applied(db);
    const row = await statusOf(db, applicationId);
    expect(row).toMatchObject({ status: "submitted", note: "Original paint, 40k miles", userId: member.id });
    expect(row.carLabel).toMatch(/^1991 Mazda MX-5/);

    const again = await applyWithOwnCar(db, member, event.eventId);
    expect(again).toEqual({ ok: false, field: "carId", message: "You have already applied with this car" });
    expect(await carsToApplyWith(db, { userId: member.id, eventId: event.eventId })).toEqual([
      expect.objectContaining({ id: member.carId, applied: true }),
    ]);
  });

  it("refuses someone else's car, closed applications, a passed deadline and a long note", async () => {
    const { db } = database();
    const event = await createApplicationEvent(db);
    const [owner, other] = await createMembersWithCars(db, 2);
    const base = { userId: other!.id, eventId: event.eventId, carId: owner!.carId, note: "", now };
    expect(await applyWithCar(db, base)).toMatchObject({ ok: false, field: "carId" });
    expect(await applyWithCar(db, { ...base, carId: other!.carId, note: "x".repeat(2001) })).toMatchObject({
      ok: false,
      field: "note",
    });
    expect(await applyWithCar(db, { ...base, carId: other!.carId, now: DEADLINE })).toEqual({
      ok: false,
      field: "form",
      message: "The deadline for applications has passed",
    });
    const closed = await createApplicationEvent(db, { open: false });
    expect(await applyWithCar(db, { ...base, eventId: closed.eventId, carId: other!.carId })).toEqual({
      ok: false,
      field: "form",
      message: "Applications for this event are closed",
    });
    expect(await db.select().from(showCarApplications).where(eq(showCarApplications.userId, other!.id))).toHaveLength(
      0,
    );
  });

  it("withdraws before it is paid, and may apply again afterwards", async () => {
    const { db } = database();
    const { event, member, applicationId } = await applied(db);
    expect(await withdrawApplication(db, { userId: "someone-else", applicationId, now })).toMatchObject({ ok: false });
    expect(await withdrawApplication(db, { userId: member.id, applicationId, now })).toEqual({ ok: true });
    expect((await statusOf(db, applicationId)).status).toBe("withdrawn");
    expect(await withdrawApplication(db, { userId: member.id, applicationId, now })).toMatchObject({ ok: false });
    const again = await applyWithOwnCar(db, member, event.eventId);
    expect(again).toMatchObject({ ok: true, applicationId });
    expect((await statusOf(db, applicationId)).status).toBe("submitted");
  });
});

describe("decisions", () => {
  it("wait-lists, rejects and approves with a note, audited, and never past the spots", async () => {
    const { db } = database();
    const event = await createApplicationEvent(db, { spots: 1 });
    const members = await createMembersWithCars(db, 3);
    const ids: string[] = [];
    for (const member of members) {
      const result = await applyWithCar(db, {
        userId: member.id,
        eventId: event.eventId,
        carId: member.carId,
        note: "",
        now,
      });
      if (!result.ok) throw new Error(result.message);
      ids.push(result.applicationId);
    }
    const staffId = await staff(db);
    const decide = (applicationId: string, decision: "approve" | "waitlist" | "reject", note = "") =>
      decideApplication(db, { applicationId, eventId: event.eventId, decision, note, staffId, now });

    const approved = await decide(ids[0]!, "approve", "See you there");
    expect(approved).toMatchObject({ ok: true, status: "approved", fee: 2500, passIssued: false });
    expect(await decide(ids[1]!, "approve")).toEqual({
      ok: false,
      message: "All 1 spots are taken; put it on the waiting list, or free a spot first",
    });
    expect(await decide(ids[1]!, "waitlist", "Full for now")).toMatchObject({ ok: true, status: "waitlisted" });
    expect(await decide(ids[2]!, "reject", "Not this time")).toMatchObject({ ok: true, status: "rejected" });
    expect(await decide(ids[2]!, "approve")).toMatchObject({ ok: false });

    // The approved member withdraws: the wait-listed one can now be approved.
    await withdrawApplication(db, { userId: members[0]!.id, applicationId: ids[0]!, now });
    expect(await decide(ids[1]!, "approve")).toMatchObject({ ok: true, status: "approved" });

    const audits = await db.select().from(auditLog).where(eq(auditLog.subjectType, "show_car_application"));
    expect(audits.map((entry) => entry.action).sort()).toEqual([
      "application.approve",
      "application.approve",
      "application.reject",
      "application.waitlist",
    ]);
    const row = await statusOf(db, ids[2]!);
    expect(row).toMatchObject({ decisionNote: "Not this time", reviewedBy: staffId });

    if (!approved.ok) throw new Error("expected approval");
    const email = decisionEmail(
      { siteName: "Pitlane", siteUrl: "https://example.test", currency: "GBP" },
      approved,
      "See you there",
    );
    expect(email?.subject).toMatch(/^Approved: your 1991 Mazda MX-5/);
    expect(email?.text).toContain("Message from the organizers: See you there");
    expect(email?.text).toContain("£25.00");
  });

  it("a free approval confirms at once and issues a pass the gate admits once", async () => {
    const { db } = database();
    const { event, member, applicationId } = await applied(db, { fee: 0 });
    const staffId = await staff(db);
    const decided = await decideApplication(db, {
      applicationId,
      eventId: event.eventId,
      decision: "approve",
      note: "",
      staffId,
      now,
    });
    expect(decided).toMatchObject({ ok: true, status: "paid", passIssued: true });
    const [mine] = await applicationsOfMember(db, { userId: member.id, secret: SECRET, now });
    expect(mine).toMatchObject({ status: "paid", canPay: false, canWithdraw: false });
    const code = verifySignedTicketCode(mine!.pass!.qrPayload!, SECRET)!;
    expect(code).toBeTruthy();

    const first = await checkInPass(db, { code, eventId: event.eventId, staffId, now });
    expect(first).toMatchObject({ kind: "checked_in", carLabel: expect.stringMatching(/Mazda/) });
    const second = await checkInPass(db, { code, eventId: event.eventId, staffId, now });
    expect(second).toMatchObject({ kind: "already_checked_in", checkedInAt: now });
    const other = await createApplicationEvent(db);
    expect(await checkInPass(db, { code, eventId: other.eventId, staffId, now })).toMatchObject({
      kind: "other_event",
    });
    expect(await checkInPass(db, { code: "0".repeat(26), eventId: event.eventId, staffId, now })).toEqual({
      kind: "not_found",
    });
    const [listed] = await applicationsOfEvent(db, event.eventId);
    expect(listed).toMatchObject({ status: "paid", passCheckedIn: true });
  });
});

describe("the fee through the cart", () => {
  async function approvedWithFee(db: Db) {
    const setup = await applied(db);
    const staffId = await staff(db);
    const decided = await decideApplication(db, {
      applicationId: setup.applicationId,
      eventId: setup.event.eventId,
      decision: "approve",
      note: "",
      staffId,
      now,
    });
    if (!decided.ok) throw new Error(decided.message);
    return { ...setup, staffId };
  }

  it("is paid through checkout and settlement, issuing the pass; a refund cancels it and frees the spot", async () => {
    const { db } = database();
    const { member, applicationId, staffId } = await approvedWithFee(db);
    const added = await addFeeToCart(db, { userId: member.id, applicationId, now });
    if (!added.ok) throw new Error(added.message);
    // A second click changes nothing.
    await addFeeToCart(db, { userId: member.id, applicationId, now });
    expect(await db.select().from(cartItems).where(eq(cartItems.applicationId, applicationId))).toHaveLength(1);

    const checkout = await startCheckout(db, checkoutFor(member, added.cartId, now));
    if (!checkout.ok) throw new Error(JSON.stringify(checkout.problems));
    expect(checkout.order.total).toBe(2500);
    const settled = await settleOrder(db, paidInFull(checkout.order, now));
    expect(settled.kind).toBe("settled");
    expect((await statusOf(db, applicationId)).status).toBe("paid");
    const [pass] = await db.select().from(exhibitorPasses).where(eq(exhibitorPasses.applicationId, applicationId));
    expect(pass).toMatchObject({ status: "valid", orderId: checkout.order.id, userId: member.id });
    expect(await db.select().from(cartItems).where(eq(cartItems.applicationId, applicationId))).toHaveLength(0);
    // /success and the order email show the pass.
    const view = await orderForBuyer(db, {
      orderId: checkout.order.id,
      userId: member.id,
      secret: SECRET,
      siteTimeZone: "Europe/London",
    });
    expect(view!.passes).toEqual([expect.objectContaining({ carLabel: expect.stringMatching(/Mazda/) })]);
    expect(view!.passes[0]!.qrPayload).toBeTruthy();
    const email = await orderEmail({ siteName: "Pitlane", siteUrl: "https://example.test" }, view!);
    expect(email.subject).toMatch(/^Your exhibitor pass — order/);
    expect(email.text).toContain(view!.passes[0]!.shortCode);
    expect(email.attachments).toHaveLength(1);

    const refund = await refundOrder(db, {
      orderId: checkout.order.id,
      actorId: staffId,
      reason: "Car broke down",
      now,
    });
    expect(refund).toMatchObject({ ok: true, amount: 2500, status: "refunded" });
    const [cancelled] = await db.select().from(exhibitorPasses).where(eq(exhibitorPasses.applicationId, applicationId));
    expect(cancelled!.status).toBe("cancelled");
    expect((await statusOf(db, applicationId)).status).toBe("withdrawn");
    const [line] = await db
      .select()
      .from(orderItems)
      .where(and(eq(orderItems.orderId, checkout.order.id), eq(orderItems.kind, "application")));
    expect(line!.refundedQuantity).toBe(1);
  });

  it("is refunded with the holders of a cancelled event, once", async () => {
    const { db } = database();
    const { event, member, applicationId, staffId } = await approvedWithFee(db);
    const added = await addFeeToCart(db, { userId: member.id, applicationId, now });
    if (!added.ok) throw new Error(added.message);
    const checkout = await startCheckout(db, checkoutFor(member, added.cartId, now));
    if (!checkout.ok) throw new Error("checkout refused");
    await settleOrder(db, paidInFull(checkout.order, now));
    const input = { eventId: event.eventId, actorId: staffId, reason: "Event cancelled", now };
    const first = await refundEventHolders(db, input);
    expect(first.refunded).toEqual([expect.objectContaining({ amount: 2500, status: "refunded" })]);
    expect((await refundEventHolders(db, input)).refunded).toHaveLength(0);
    const [pass] = await db.select().from(exhibitorPasses).where(eq(exhibitorPasses.applicationId, applicationId));
    expect(pass!.status).toBe("cancelled");
  });

  it("is refused in the cart, at checkout and at settlement once it is no longer approved or past the deadline", async () => {
    const { db } = database();
    const { event, member, applicationId, staffId } = await approvedWithFee(db);
    expect(await addFeeToCart(db, { userId: member.id, applicationId, now: DEADLINE })).toEqual({
      ok: false,
      message: "The deadline for paying this application's fee has passed",
    });
    const added = await addFeeToCart(db, { userId: member.id, applicationId, now });
    if (!added.ok) throw new Error(added.message);
    const late = await startCheckout(db, checkoutFor(member, added.cartId, DEADLINE));
    expect(late).toMatchObject({ ok: false, problems: [{ code: "application" }] });

    const checkout = await startCheckout(db, checkoutFor(member, added.cartId, now));
    if (!checkout.ok) throw new Error("checkout refused");
    // Rejected while the member was paying: the payment is refunded, no pass.
    await decideApplication(db, {
      applicationId,
      eventId: event.eventId,
      decision: "reject",
      note: "Changed our minds",
      staffId,
      now,
    });
    const settled = await settleOrder(db, paidInFull(checkout.order, now));
    expect(settled).toMatchObject({ kind: "refund_required", reason: "This application is no longer approved" });
    expect(
      await db.select().from(exhibitorPasses).where(eq(exhibitorPasses.applicationId, applicationId)),
    ).toHaveLength(0);
  });
});

describe("the gate", () => {
  it("admits an exhibitor pass by its typed or scanned code, showing the car, and tells a second scan who and when", async () => {
    const { db } = database();
    const { event, member, applicationId } = await applied(db, { fee: 0 });
    const staffId = await staff(db);
    await decideApplication(db, { applicationId, eventId: event.eventId, decision: "approve", note: "", staffId, now });
    const [mine] = await applicationsOfMember(db, { userId: member.id, secret: SECRET, now });
    const typed = mine!.pass!.shortCode.toLowerCase();
    const first = await admitAtGate(db, { value: typed, eventId: event.eventId, staffId, secret: SECRET, now });
    expect(first).toMatchObject({
      tone: "admitted",
      headline: expect.stringMatching(/^Exhibitor: 1991 Mazda MX-5/),
      car: { coverHash: null },
    });
    const second = await admitAtGate(db, {
      value: mine!.pass!.qrPayload!,
      eventId: event.eventId,
      staffId,
      secret: SECRET,
      now,
    });
    expect(second).toMatchObject({ tone: "warning", headline: expect.stringMatching(/^Already checked in at/) });
    const forged = await admitAtGate(db, {
      value: `${mine!.pass!.qrPayload!.split(".")[0]}.${"0".repeat(26)}`,
      eventId: event.eventId,
      staffId,
      secret: SECRET,
      now,
    });
    expect(forged.tone).toBe("refused");
  });
});
