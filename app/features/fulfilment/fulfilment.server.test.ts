import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { insertAccount } from "~/features/accounts/staff.server";
import { createTestEvent } from "~/features/checkout/stock.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { auditLog, orderHistory, orders } from "../../../db/schema";
import { changeFulfilment, collectionsAtGate, listFulfilment, packingList } from "./fulfilment.server";
import { createMerchOrder, createMerchVariant } from "./fulfilment.test-support";

const database = freshDatabasePerFile();
const brand = { siteName: "Pitlane", siteUrl: "https://club.example" };
const now = new Date("2027-05-02T09:00:00Z");
let staffId: string;
let buyerId: string;
let variantId: string;

beforeAll(async () => {
  const { db } = database();
  staffId = (
    await insertAccount(db, { email: "staff@club.example", name: "Sam Staff", role: "organizer", passwordHash: "x" })
  ).id;
  buyerId = (
    await insertAccount(db, { email: "jo@club.example", name: "Jo Driver", role: "member", passwordHash: "x" })
  ).id;
  variantId = (await createMerchVariant(db)).variantId;
});

const context = () => ({ actorId: staffId, brand, now });

describe("marking an order shipped", () => {
  it("records carrier, tracking link, who and when, a history note and an audit entry, and returns the buyer's email", async () => {
    const { db } = database();
    const order = await createMerchOrder(db, { userId: buyerId, variantId, quantity: 2 });
    const outcome = await changeFulfilment(
      db,
      { intent: "ship", orderId: order.id, carrier: "royal_mail", trackingNumber: "AB123456789GB" },
      context(),
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.email?.to).toBe("jo@club.example");
    expect(outcome.email?.subject).toMatch(/on its way/);
    expect(outcome.email?.text).toContain("https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB");
    expect(outcome.email?.text).toContain("2 × Club tee (M / Black)");

    const [row] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(row).toMatchObject({
      fulfilmentStatus: "shipped",
      carrier: "royal_mail",
      trackingNumber: "AB123456789GB",
      trackingUrl: "https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB",
      shippedAt: now,
      fulfilledBy: staffId,
      status: "paid",
    });
    const history = await db.select().from(orderHistory).where(eq(orderHistory.orderId, order.id));
    expect(history.map((entry) => entry.note)).toEqual(["Merch shipped with Royal Mail, tracking AB123456789GB"]);
    const audit = await db.select().from(auditLog).where(eq(auditLog.subjectId, order.id));
    expect(audit.map((entry) => [entry.action, entry.actorId])).toEqual([["order.fulfilment.ship", staffId]]);
  });

  it("ships once and emails once when two staff press the button at the same time", async () => {
    const { db } = database();
    const order = await createMerchOrder(db, { userId: buyerId, variantId });
    const ship = (trackingNumber: string) =>
      changeFulfilment(db, { intent: "ship", orderId: order.id, carrier: "dpd", trackingNumber }, context());
    const outcomes = await Promise.all([ship("1111222233"), ship("4444555566")]);
    const done = outcomes.filter((outcome) => outcome.ok);
    expect(done).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.ok).map((outcome) => !outcome.ok && outcome.status)).toEqual([409]);
    const emails = done.map((outcome) => outcome.ok && outcome.email).filter(Boolean);
    expect(emails).toHaveLength(1);
    const audit = await db.select().from(auditLog).where(eq(auditLog.subjectId, order.id));
    expect(audit).toHaveLength(1);
  });

  it("uses the address staff gave for another carrier", async () => {
    const { db } = database();
    const order = await createMerchOrder(db, { userId: buyerId, variantId });
    const outcome = await changeFulfilment(
      db,
      {
        intent: "ship",
        orderId: order.id,
        carrier: "other",
        trackingNumber: "XYZ123456",
        trackingUrl: "https://parcels.example/t/XYZ123456",
      },
      context(),
    );
    expect(outcome.ok && outcome.email?.text).toContain("https://parcels.example/t/XYZ123456");
  });

  it("refuses orders that are unpaid, refunded or cancelled, and collection orders", async () => {
    const { db } = database();
    for (const status of ["pending", "refunded", "cancelled"] as const) {
      const order = await createMerchOrder(db, { userId: buyerId, variantId, status });
      const outcome = await changeFulfilment(
        db,
        { intent: "ship", orderId: order.id, carrier: "evri", trackingNumber: "H01ABC1234567890" },
        context(),
      );
      expect(outcome).toMatchObject({ ok: false, status: 404 });
    }
    const event = await createTestEvent(db, { types: [{ name: "Entry" }] });
    const collection = await createMerchOrder(db, { userId: buyerId, variantId, collectionEventId: event.eventId });
    const outcome = await changeFulfilment(
      db,
      { intent: "ship", orderId: collection.id, carrier: "evri", trackingNumber: "H01ABC1234567890" },
      context(),
    );
    expect(outcome).toMatchObject({ ok: false, status: 409 });
  });
});

describe("collection at an event", () => {
  it("sets the merch aside with an email naming the event, shows it at the gate, then hands it over", async () => {
    const { db } = database();
    const event = await createTestEvent(db, { title: "Summer Sunday Meet", types: [{ name: "Entry" }] });
    const order = await createMerchOrder(db, { userId: buyerId, variantId, collectionEventId: event.eventId });

    expect(await collectionsAtGate(db, { userId: buyerId, eventId: event.eventId })).toEqual([
      {
        id: order.id,
        reference: expect.stringMatching(/^PL-\d{6}$/),
        lines: [expect.objectContaining({ product: "Club tee", quantity: 1 })],
      },
    ]);

    expect(await collectionsAtGate(db, { eventId: event.eventId, orderId: order.id })).toHaveLength(1);
    expect(await collectionsAtGate(db, { eventId: event.eventId, orderId: "not-an-id" })).toEqual([]);

    const ready = await changeFulfilment(db, { intent: "ready", orderId: order.id }, context());
    expect(ready.ok && ready.email?.subject).toMatch(/waiting at Summer Sunday Meet/);
    const again = await changeFulfilment(db, { intent: "ready", orderId: order.id }, context());
    expect(again).toMatchObject({ ok: false, status: 409 });

    const handed = await changeFulfilment(db, { intent: "collected", orderId: order.id }, context());
    expect(handed).toMatchObject({ ok: true, email: null });
    expect(await collectionsAtGate(db, { userId: buyerId, eventId: event.eventId })).toEqual([]);
  });
});

describe("the fulfilment list", () => {
  it("shows paid merch oldest first in its tab, finds by number or name, and leaves refunded orders out", async () => {
    const { db } = database();
    const other = await createMerchVariant(db, { title: "Track cap", options: ["One size"] });
    const newer = await createMerchOrder(db, {
      userId: buyerId,
      variantId: other.variantId,
      paidAt: new Date("2027-05-01T12:00:00Z"),
    });
    const older = await createMerchOrder(db, {
      userId: buyerId,
      variantId: other.variantId,
      paidAt: new Date("2027-04-01T12:00:00Z"),
    });
    const refunded = await createMerchOrder(db, { userId: buyerId, variantId: other.variantId, status: "refunded" });

    const list = await listFulfilment(db, { view: "to-ship", q: "" });
    const ids = list.orders.map((order) => order.id);
    expect(ids.indexOf(older.id)).toBeLessThan(ids.indexOf(newer.id));
    expect(ids).not.toContain(refunded.id);
    expect(list.counts["to-ship"]).toBe(list.orders.length);

    const byNumber = await listFulfilment(db, { view: "to-ship", q: `PL-${String(newer.number).padStart(6, "0")}` });
    expect(byNumber.orders.map((order) => order.id)).toEqual([newer.id]);
    const byName = await listFulfilment(db, { view: "to-ship", q: "jo driv" });
    expect(byName.orders.length).toBeGreaterThan(1);
    const shipped = await listFulfilment(db, { view: "shipped", q: "" });
    expect(shipped.orders.every((order) => order.fulfilmentStatus === "shipped")).toBe(true);

    const sheets = await packingList(db, [newer.id, refunded.id]);
    expect(sheets.map((sheet) => [sheet.id, sheet.lines.map((line) => line.product)])).toEqual([
      [newer.id, ["Track cap"]],
    ]);
  });
});
