import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { NOW } from "~/features/checkout/stock.test-support";
import { admitAtGate, gateCounts } from "~/features/gate/gate.server";
import { soldDayTickets } from "~/features/gate/gate.test-support";
import { saveGateReentry } from "~/features/gate/gate-screen.server";
import { admittedByGate } from "~/features/gate/gate-staff.server";
import { admissionList, syncOfflineScans } from "~/features/gate/offline-gate.server";
import { signTicketCode } from "~/features/tickets/ticket-codes.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { auditLog } from "../../../db/schema";

const database = freshDatabasePerFile();
const secret = "gate-secret-gate-secret-gate-secret-0123";
// 10:42 in London in summer.
const at = new Date("2027-06-12T09:42:00Z");
const minutes = (n: number) => new Date(at.getTime() + n * 60_000);

async function soldTickets(quantity: number, reentry: boolean) {
  const { db } = database();
  const sold = await soldDayTickets(db, quantity);
  const organizer = await testAccount(db, "organizer");
  if (reentry) await saveGateReentry(db, { eventId: sold.eventId, reentry, actorId: organizer.id, now: NOW });
  return { ...sold, staffId: organizer.id };
}

describe("entries and exits online", () => {
  it("scans a holder out and back in, once each, and counts who is inside", async () => {
    const { db } = database();
    const sold = await soldTickets(2, true);
    const gate = {
      eventId: sold.eventId,
      staffId: sold.staffId,
      secret,
      value: signTicketCode(sold.codes[0]!, secret),
    };

    expect(await admitAtGate(db, { ...gate, now: at, direction: "out" })).toMatchObject({
      tone: "warning",
      headline: "Not checked in yet",
    });
    expect(await admitAtGate(db, { ...gate, now: at })).toMatchObject({ tone: "admitted", headline: /^Checked in: / });
    expect(await admitAtGate(db, { ...gate, now: minutes(5), direction: "out" })).toMatchObject({
      tone: "admitted",
      headline: /^Out: .+, Day ticket$/,
      detail: "They can come back in with this ticket.",
    });
    expect(await gateCounts(db, sold.eventId)).toEqual({ checkedIn: 1, inside: 0, sold: 2 });
    expect(await admitAtGate(db, { ...gate, now: minutes(6), direction: "out" })).toMatchObject({
      tone: "warning",
      headline: "Already out at 10:47",
    });
    // The admission list tells a device getting ready that the holder is out.
    const list = await admissionList(db, { eventId: sold.eventId, secret, now: minutes(7) });
    expect(list?.reentry).toBe(true);
    expect(list?.entries.filter((entry) => entry.o)).toHaveLength(1);

    expect(await admitAtGate(db, { ...gate, now: minutes(30) })).toMatchObject({
      tone: "admitted",
      headline: /^Back in: .+, Day ticket$/,
    });
    expect(await admitAtGate(db, { ...gate, now: minutes(31) })).toMatchObject({
      tone: "warning",
      headline: /^Already checked in at 10:42/,
    });
    expect(await gateCounts(db, sold.eventId)).toEqual({ checkedIn: 1, inside: 1, sold: 2 });
  });

  it("two scanners reading one holder out at once record one exit", async () => {
    const { db } = database();
    const sold = await soldTickets(1, true);
    const gate = {
      eventId: sold.eventId,
      staffId: sold.staffId,
      secret,
      value: signTicketCode(sold.codes[0]!, secret),
    };
    await admitAtGate(db, { ...gate, now: at });
    const both = await Promise.all([
      admitAtGate(db, { ...gate, now: minutes(1), direction: "out" }),
      admitAtGate(db, { ...gate, now: minutes(1), direction: "out" }),
    ]);
    expect(both.map((answer) => answer.tone).sort()).toEqual(["admitted", "warning"]);
  });

  it("refuses exits where the event has no re-entry, and a second entry stays already", async () => {
    const { db } = database();
    const sold = await soldTickets(1, false);
    const gate = {
      eventId: sold.eventId,
      staffId: sold.staffId,
      secret,
      value: signTicketCode(sold.codes[0]!, secret),
    };
    await admitAtGate(db, { ...gate, now: at });
    expect(await admitAtGate(db, { ...gate, now: minutes(1), direction: "out" })).toMatchObject({
      tone: "refused",
      headline: "This event has no re-entry",
    });
    expect(await admitAtGate(db, { ...gate, now: minutes(2) })).toMatchObject({ tone: "warning" });
  });

  it("turning re-entry on or off is audited", async () => {
    const { db } = database();
    const sold = await soldTickets(1, true);
    const rows = await db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, "gate.reentry"));
    expect(rows.some((row) => (row.details as { reentry: boolean }).reentry === true)).toBe(true);
    expect(await saveGateReentry(db, { eventId: randomUUID(), reentry: true, actorId: sold.staffId, now: NOW })).toBe(
      false,
    );
  });
});

describe("entries and exits made offline", () => {
  it("replay in scan order: in, out, back in; exits are no conflicts and do not count as admissions at a gate", async () => {
    const { db } = database();
    const sold = await soldTickets(1, true);
    const value = signTicketCode(sold.codes[0]!, secret);
    const scans = [
      { id: randomUUID(), value, at: at, local: "admitted" as const, direction: "in" as const },
      { id: randomUUID(), value, at: minutes(10), local: "admitted" as const, direction: "out" as const },
      { id: randomUUID(), value, at: minutes(20), local: "admitted" as const, direction: "in" as const },
    ];
    const synced = await syncOfflineScans(db, {
      eventId: sold.eventId,
      staffId: sold.staffId,
      gate: "North",
      scans: [...scans].reverse(),
      secret,
      now: minutes(60),
    });
    expect(synced?.map((scan) => [scan.outcome, scan.headline.split(":")[0], scan.conflict])).toEqual([
      ["admitted", "Checked in", null],
      ["admitted", "Out", null],
      ["admitted", "Back in", null],
    ]);
    expect(await gateCounts(db, sold.eventId)).toEqual({ checkedIn: 1, inside: 1, sold: 1 });
    expect(await admittedByGate(db, sold.eventId)).toEqual([{ gate: "North", admitted: 2 }]);
  });
});
