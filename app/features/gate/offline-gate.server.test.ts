import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { NOW } from "~/features/checkout/stock.test-support";
import { soldDayTickets } from "~/features/gate/gate.test-support";
import { refundOrder } from "~/features/selling/selling.server";
import { signTicketCode } from "~/features/tickets/ticket-codes.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { gateScans, tickets, users } from "../../../db/schema";
import {
  admissionList,
  codeHash,
  gateConflicts,
  type OfflineScan,
  scanOnline,
  syncOfflineScans,
} from "./offline-gate.server";
import { decideOffline } from "./offline-rules";

const database = freshDatabasePerFile();
const secret = "gate-secret-gate-secret-gate-secret-0123";
const at = (time: string) => new Date(`2027-06-12T${time}:00Z`);

/** An event with `quantity` day tickets sold to one buyer, and a steward. */
async function soldTickets(quantity: number) {
  const { db } = database();
  const sold = await soldDayTickets(db, quantity);
  const [steward] = await db
    .insert(users)
    .values({ id: randomUUID(), name: "Sam Steward", email: `${randomUUID()}@example.test` })
    .returning({ id: users.id });
  return { ...sold, stewardId: steward!.id };
}

const scan = (value: string, time: string, local: OfflineScan["local"] = "admitted"): OfflineScan => ({
  id: randomUUID(),
  value,
  at: at(time),
  local,
});

describe("the admission list", () => {
  it("carries each ticket's hash, type, initials and state, and the public key; no names or emails", async () => {
    const { db } = database();
    const sold = await soldTickets(2);
    const list = await admissionList(db, { eventId: sold.eventId, secret, now: at("08:00") });
    expect(list).toMatchObject({ eventId: sold.eventId, types: ["Day ticket"], timeZone: "Europe/London" });
    expect(list!.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(list!.entries).toHaveLength(2);
    expect(list!.entries.map((entry) => entry.h).sort()).toEqual(sold.codes.map(codeHash).sort());
    for (const entry of list!.entries) {
      expect(entry).toMatchObject({ k: "ticket", t: 0, s: "valid", a: null });
      expect(entry.n).toMatch(/^\S\.( \S\.)*$/);
    }
    const text = JSON.stringify(list);
    expect(text).not.toContain(sold.buyer.email);
    for (const code of sold.codes) expect(text).not.toContain(code);
    expect(await admissionList(db, { eventId: randomUUID(), secret, now: at("08:00") })).toBeNull();
  });

  it("decides on the device as the server would: valid, refunded, already in", async () => {
    const { db } = database();
    const sold = await soldTickets(2);
    await refundOrder(db, { orderId: sold.orderId, actorId: null, reason: "Cannot come", now: NOW });
    const list = (await admissionList(db, { eventId: sold.eventId, secret, now: at("08:00") }))!;
    const entry = list.entries.find((row) => row.h === codeHash(sold.codes[0]!));
    expect(
      decideOffline(entry, { types: list.types, timeZone: list.timeZone, now: at("09:00"), signed: true }),
    ).toMatchObject({
      decision: "refused",
      headline: "This ticket was refunded",
    });
  });
});

describe("replaying offline scans", () => {
  it("admits at the times scanned, in scan order, and answers a replayed outbox as before", async () => {
    const { db } = database();
    const sold = await soldTickets(3);
    const outbox = [
      scan(signTicketCode(sold.codes[1]!, secret), "09:05"),
      scan(signTicketCode(sold.codes[0]!, secret), "09:02"),
      scan(`${sold.codes[2]!.slice(0, 26)}.${"A".repeat(103)}`, "09:03", "refused"),
    ];
    const sync = () =>
      syncOfflineScans(db, {
        eventId: sold.eventId,
        staffId: sold.stewardId,
        gate: "A",
        scans: outbox,
        secret,
        now: at("10:00"),
      });
    const first = await sync();
    expect(first?.map((row) => [row.outcome, row.conflict])).toEqual([
      ["admitted", null],
      ["refused", null],
      ["admitted", null],
    ]);
    // Sent again (the device never heard back), twice: nothing changes.
    expect(await sync()).toEqual(first);
    expect(await sync()).toEqual(first);
    expect(await db.select().from(gateScans)).toHaveLength(3);
    const admitted = await db
      .select({ code: tickets.code, status: tickets.status, at: tickets.checkedInAt })
      .from(tickets)
      .where(eq(tickets.orderId, sold.orderId));
    const byCode = new Map(admitted.map((row) => [row.code, row]));
    expect(byCode.get(sold.codes[0]!)).toMatchObject({ status: "checked_in", at: at("09:02") });
    expect(byCode.get(sold.codes[1]!)).toMatchObject({ status: "checked_in", at: at("09:05") });
    expect(byCode.get(sold.codes[2]!)).toMatchObject({ status: "valid" });
  });

  it("records a conflict when two devices admitted one ticket offline, and keeps the earlier time", async () => {
    const { db } = database();
    const sold = await soldTickets(1);
    const qr = signTicketCode(sold.codes[0]!, secret);
    const send = (gate: string, scans: OfflineScan[]) =>
      syncOfflineScans(db, { eventId: sold.eventId, staffId: sold.stewardId, gate, scans, secret, now: at("10:00") });
    // B comes back online first with its later scan; then A with the earlier one.
    expect(await send("B", [scan(qr, "09:05")])).toMatchObject([{ outcome: "admitted", conflict: null }]);
    expect(await send("A", [scan(qr, "09:02")])).toMatchObject([
      { outcome: "already", conflict: "Admitted twice, at gates A and B, 10:02 and 10:05" },
    ]);
    const [ticket] = await db.select({ at: tickets.checkedInAt }).from(tickets).where(eq(tickets.code, sold.codes[0]!));
    expect(ticket?.at).toEqual(at("09:02"));
    expect(await gateConflicts(db, { eventId: sold.eventId, now: at("10:00") })).toEqual([
      expect.objectContaining({
        conflict: "Admitted twice, at gates A and B, 10:02 and 10:05",
        gate: "A",
        at: "10:02",
      }),
    ]);
    // A second look at the same ticket that the device already knew was in is no conflict.
    expect(await send("A", [scan(qr, "09:10", "already")])).toMatchObject([{ outcome: "already", conflict: null }]);
  });

  it("records a conflict when a device admitted a ticket refunded since its list was made", async () => {
    const { db } = database();
    const sold = await soldTickets(1);
    await refundOrder(db, { orderId: sold.orderId, actorId: null, reason: "Cannot come", now: NOW });
    const result = await syncOfflineScans(db, {
      eventId: sold.eventId,
      staffId: sold.stewardId,
      gate: "C",
      scans: [scan(signTicketCode(sold.codes[0]!, secret), "09:30")],
      secret,
      now: at("10:00"),
    });
    expect(result).toMatchObject([
      { outcome: "refused", conflict: "Admitted at gate C, 10:30, though the ticket was refunded" },
    ]);
  });

  it("counts once a scan the server answered online but the device queued too, its answer lost", async () => {
    const { db } = database();
    const sold = await soldTickets(1);
    const qr = signTicketCode(sold.codes[0]!, secret);
    const id = randomUUID();
    const online = await scanOnline(db, {
      eventId: sold.eventId,
      staffId: sold.stewardId,
      gate: "A",
      id,
      value: qr,
      secret,
      now: at("09:02"),
    });
    expect(online).toMatchObject({ seen: false, result: { tone: "admitted" } });
    // The answer never reached the device: it decided the scan itself and queued it, same id.
    const replayed = await syncOfflineScans(db, {
      eventId: sold.eventId,
      staffId: sold.stewardId,
      gate: "A",
      scans: [{ id, value: qr, at: at("09:02"), local: "admitted" }],
      secret,
      now: at("09:30"),
    });
    expect(replayed).toMatchObject([{ id, outcome: "admitted", conflict: null }]);
    expect(await db.select().from(gateScans).where(eq(gateScans.id, id))).toHaveLength(1);
    // Sent online again under the same id (a retry), it is answered as it was.
    expect(
      await scanOnline(db, {
        eventId: sold.eventId,
        staffId: sold.stewardId,
        gate: "A",
        id,
        value: qr,
        secret,
        now: at("09:03"),
      }),
    ).toMatchObject({ seen: true, result: { tone: "admitted" } });
    expect(await gateConflicts(db, { eventId: sold.eventId, now: at("10:00") })).toEqual([]);
    expect(
      await scanOnline(db, {
        eventId: randomUUID(),
        staffId: sold.stewardId,
        gate: "A",
        id: randomUUID(),
        value: qr,
        secret,
        now: at("09:04"),
      }),
    ).toBeNull();
  });
});
