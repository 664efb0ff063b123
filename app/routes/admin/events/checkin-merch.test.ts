import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyers, createTestEvent, NOW } from "~/features/checkout/stock.test-support";
import { createMerchOrder, createMerchVariant } from "~/features/fulfilment/fulfilment.test-support";
import { paidOrder } from "~/features/orders/paid-orders.test-support";
import { formatTicketCode } from "~/features/tickets/ticket-codes.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { TestRole } from "~/server/session-user.test-support";
import { recordingOutbox, routeTestSite, statusOf } from "~/web/route-calls.test-support";
import { orders, tickets } from "../../../../db/schema";
import { action } from "./checkin";

// Merch at the gate: a scanned ticket shows what its buyer collects here, and staff hand it over.
const database = freshDatabasePerFile();
const site = routeTestSite(database, { name: "gate", runtime: () => ({ outbox: recordingOutbox().outbox }) });

const post = (who: TestRole | null, eventId: string, body: Record<string, string>) =>
  action(site.args(who, { path: `/admin/events/${eventId}/checkin`, params: { eventId }, body }));

async function ticketAndMerch() {
  const { db } = database();
  const event = await createTestEvent(db, { types: [{ name: "Day ticket" }] });
  const [buyer] = await createBuyers(db, 1);
  const { id } = await paidOrder(db, buyer!, [{ ticketTypeId: event.typeIds[0]!, quantity: 1 }], NOW, NOW);
  const [ticket] = await db.select({ code: tickets.code }).from(tickets).where(eq(tickets.orderId, id));
  const { variantId } = await createMerchVariant(db, { title: "Club tee" });
  const order = await createMerchOrder(db, { userId: buyer!.id, variantId, collectionEventId: event.eventId });
  return { eventId: event.eventId, code: formatTicketCode(ticket!.code), order };
}

describe("merch at the gate", () => {
  it("shows the buyer's merch to collect with the scan, and lets staff hand it over once", async () => {
    const { eventId, code, order } = await ticketAndMerch();
    const scanned = (await post("organizer", eventId, { code })) as {
      result: { tone: string; buyerId?: string };
      merch: { id: string; lines: { product: string; options: string[]; quantity: number }[] }[];
    };
    expect(scanned.result.tone).toBe("admitted");
    expect(scanned.result).not.toHaveProperty("buyerId");
    expect(scanned.merch).toEqual([
      expect.objectContaining({
        id: order.id,
        lines: [expect.objectContaining({ product: "Club tee", options: ["M", "Black"], quantity: 1 })],
      }),
    ]);

    expect(await post("admin", eventId, { intent: "handover", orderId: order.id })).toEqual({
      handedOver: expect.stringMatching(/^PL-\d{6}$/),
    });
    const [row] = await database()
      .db.select({ status: orders.fulfilmentStatus })
      .from(orders)
      .where(eq(orders.id, order.id));
    expect(row?.status).toBe("collected");
    expect(await statusOf(post("organizer", eventId, { intent: "handover", orderId: order.id }))).toBe(404);
    const again = (await post("organizer", eventId, { code })) as { merch: unknown[] };
    expect(again.merch).toEqual([]);
  });

  it("is for staff only, and refuses an order waiting at another event", async () => {
    const first = await ticketAndMerch();
    const second = await ticketAndMerch();
    expect(await statusOf(post("member", first.eventId, { intent: "handover", orderId: first.order.id }))).toBe(403);
    expect(await statusOf(post(null, first.eventId, { intent: "handover", orderId: first.order.id }))).toMatch(
      /^302 \/login/,
    );
    expect(await statusOf(post("organizer", first.eventId, { intent: "handover", orderId: second.order.id }))).toBe(
      404,
    );
    const [row] = await database()
      .db.select({ status: orders.fulfilmentStatus })
      .from(orders)
      .where(eq(orders.id, second.order.id));
    expect(row?.status).toBe("unfulfilled");
  });
});
