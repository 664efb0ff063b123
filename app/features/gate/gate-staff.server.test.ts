import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { NOW } from "~/features/checkout/stock.test-support";
import { admitAtGate } from "~/features/gate/gate.server";
import { soldDayTickets } from "~/features/gate/gate.test-support";
import {
  admittedByGate,
  gateDutiesOf,
  gateRoleOf,
  gateStaffOf,
  letInByHand,
  putOnGate,
  takeOffGate,
} from "~/features/gate/gate-staff.server";
import { signTicketCode } from "~/features/tickets/ticket-codes.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { auditLog, gateScans, tickets } from "../../../db/schema";

const database = freshDatabasePerFile();
const secret = "gate-secret-gate-secret-gate-secret-0123";
const at = new Date("2027-06-12T09:42:00Z");

const soldTickets = (quantity: number) => soldDayTickets(database().db, quantity);

describe("who works the gate", () => {
  it("organizers and admins supervise every gate; a member only the gate they were put on, in that role", async () => {
    const { db } = database();
    const sold = await soldTickets(1);
    const other = await soldTickets(1);
    const organizer = await testAccount(db, "organizer");
    const admin = await testAccount(db, "admin");
    const member = await testAccount(db, "member", "Robin Steward");

    expect(await gateRoleOf(db, organizer, sold.eventId)).toBe("supervisor");
    expect(await gateRoleOf(db, admin, sold.eventId)).toBe("supervisor");
    expect(await gateRoleOf(db, member, sold.eventId)).toBeNull();

    const added = await putOnGate(db, {
      eventId: sold.eventId,
      email: member.email.toLowerCase(),
      role: "steward",
      actorId: organizer.id,
      now: at,
    });
    expect(added).toEqual({ ok: true, name: "Robin Steward" });
    expect(await gateRoleOf(db, member, sold.eventId)).toBe("steward");
    expect(await gateRoleOf(db, member, other.eventId)).toBeNull();

    // Putting them on again changes their role; there is still one place.
    await putOnGate(db, {
      eventId: sold.eventId,
      email: member.email,
      role: "supervisor",
      actorId: organizer.id,
      now: at,
    });
    expect(await gateRoleOf(db, member, sold.eventId)).toBe("supervisor");
    expect(await gateStaffOf(db, sold.eventId)).toEqual([
      { userId: member.id, name: "Robin Steward", email: member.email, role: "supervisor" },
    ]);
    expect(await gateDutiesOf(db, member.id, NOW)).toMatchObject([{ eventId: sold.eventId, role: "supervisor" }]);

    expect(await takeOffGate(db, { eventId: sold.eventId, userId: member.id, actorId: organizer.id })).toBe(true);
    expect(await takeOffGate(db, { eventId: sold.eventId, userId: member.id, actorId: organizer.id })).toBe(false);
    expect(await gateRoleOf(db, member, sold.eventId)).toBeNull();

    const audited = await db
      .select({ action: auditLog.action, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.subjectId, sold.eventId));
    expect(audited.map((row) => row.action).sort()).toEqual(["gate.staff.add", "gate.staff.add", "gate.staff.remove"]);
  });

  it("refuses an email with no account, and staff, who supervise already", async () => {
    const { db } = database();
    const sold = await soldTickets(1);
    const organizer = await testAccount(db, "organizer", "Olive Organizer");
    const put = (email: string) =>
      putOnGate(db, { eventId: sold.eventId, email, role: "steward", actorId: organizer.id, now: at });
    expect(await put("nobody@club.example")).toEqual({
      ok: false,
      field: "email",
      message: "No account has this email: ask them to sign up first",
    });
    expect(await put(organizer.email)).toEqual({
      ok: false,
      field: "email",
      message: "Olive Organizer is staff and supervises every gate already",
    });
    expect(await gateStaffOf(db, sold.eventId)).toEqual([]);
  });
});

describe("what a steward reads", () => {
  it("shows the holder's initials, never the name; a supervisor reads the name", async () => {
    const { db } = database();
    const sold = await soldTickets(2);
    const staff = await testAccount(db, "member");
    const gate = { eventId: sold.eventId, staffId: staff.id, secret, now: at };
    const initials = sold.buyerName
      .split(/\s+/)
      .map((word) => `${word[0]!.toUpperCase()}.`)
      .join(" ");
    const steward = await admitAtGate(db, {
      ...gate,
      value: signTicketCode(sold.tickets[0]!.code, secret),
      shownTo: "steward",
    });
    expect(steward.headline).toBe(`Checked in: ${initials}, Day ticket`);
    expect(steward.headline).not.toContain(sold.buyerName);
    const supervisor = await admitAtGate(db, {
      ...gate,
      value: signTicketCode(sold.tickets[1]!.code, secret),
      shownTo: "supervisor",
    });
    expect(supervisor.headline).toBe(`Checked in: ${sold.buyerName}, Day ticket`);
  });
});

describe("letting someone in by hand", () => {
  it("checks in a valid ticket, admits a refunded one without changing it, refuses a ticket already in, and audits the reason", async () => {
    const { db } = database();
    const sold = await soldTickets(3);
    const supervisor = await testAccount(db, "member", "Sue Pervisor");
    const staff = { id: supervisor.id, role: "supervisor" as const };
    const [valid, refunded] = sold.tickets;
    await db.update(tickets).set({ status: "refunded" }).where(eq(tickets.id, refunded!.id));

    const first = await letInByHand(db, {
      eventId: sold.eventId,
      ticketId: valid!.id,
      reason: "Phone died",
      staff,
      now: at,
    });
    expect(first).toEqual({ ok: true, headline: "Checked in by hand" });
    const [checked] = await db.select().from(tickets).where(eq(tickets.id, valid!.id));
    expect(checked).toMatchObject({ status: "checked_in", checkedInBy: supervisor.id });
    expect(checked!.checkedInAt?.toISOString()).toBe(at.toISOString());

    const again = await letInByHand(db, {
      eventId: sold.eventId,
      ticketId: valid!.id,
      reason: "Again",
      staff,
      now: at,
    });
    expect(again).toEqual({ ok: false, field: "ticketId", message: "This ticket is checked in already", status: 409 });

    const anyway = await letInByHand(db, {
      eventId: sold.eventId,
      ticketId: refunded!.id,
      reason: "Refunded in error, organizer agreed",
      staff,
      now: at,
    });
    expect(anyway).toEqual({ ok: true, headline: "Let in by hand, though the ticket is refunded" });
    const [still] = await db.select({ status: tickets.status }).from(tickets).where(eq(tickets.id, refunded!.id));
    expect(still!.status).toBe("refunded");

    // Both count under "By hand"; the reasons are in the audit log.
    expect(await admittedByGate(db, sold.eventId)).toEqual([{ gate: "By hand", admitted: 2 }]);
    const scans = await db
      .select({ headline: gateScans.headline })
      .from(gateScans)
      .where(eq(gateScans.eventId, sold.eventId));
    expect(scans.map((row) => row.headline).sort()).toEqual([
      "Checked in by hand: Phone died",
      "Let in by hand, though the ticket is refunded: Refunded in error, organizer agreed",
    ]);
    const audited = await db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, "gate.let_in"));
    expect(audited.map((row) => (row.details as { reason: string }).reason).sort()).toEqual([
      "Phone died",
      "Refunded in error, organizer agreed",
    ]);
  });

  it("is not a steward's to do, and finds no ticket of another event", async () => {
    const { db } = database();
    const sold = await soldTickets(1);
    const other = await soldTickets(1);
    const member = await testAccount(db, "member");
    const steward = await letInByHand(db, {
      eventId: sold.eventId,
      ticketId: sold.tickets[0]!.id,
      reason: "Looks honest",
      staff: { id: member.id, role: "steward" },
      now: at,
    });
    expect(steward).toMatchObject({ ok: false, message: "Only a supervisor can let someone in by hand" });
    const elsewhere = await letInByHand(db, {
      eventId: sold.eventId,
      ticketId: other.tickets[0]!.id,
      reason: "Wrong event",
      staff: { id: member.id, role: "supervisor" },
      now: at,
    });
    expect(elsewhere).toMatchObject({ ok: false, status: 404 });
    const [untouched] = await db
      .select({ status: tickets.status })
      .from(tickets)
      .where(eq(tickets.id, sold.tickets[0]!.id));
    expect(untouched!.status).toBe("valid");
  });
});
