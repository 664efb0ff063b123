import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutFor, createTestEvent, fillCart, paidInFull } from "~/features/checkout/stock.test-support";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount, testSessionUser } from "~/server/session-user.test-support";
import { answerOf, type FormFields, recordingOutbox, routeTestSite } from "~/web/route-calls.test-support";
import { bookingMoves, orderItems, tickets } from "../../../../db/schema";
import * as overview from "../../members/overview";
import * as receipt from "../../members/receipt";
import { action, loader } from "./order";

// /admin/orders/:orderId's "Move tickets", called as React Router calls it, by a visitor and each role.
const database = freshDatabasePerFile();
const { outbox, sent } = recordingOutbox();
const site = routeTestSite(database, {
  name: "admin-order-move",
  runtime: () => ({ jobs: { enqueue: async () => null }, outbox, payments: { provider: "test" } }),
});

/** A paid booking of two £25 Saturday tickets, and a new date with £25 day tickets. */
async function booking(newPrice = 2500) {
  const { db } = database();
  const buyer = await testAccount(db, "member", "Moving buyer");
  const { typeIds } = await createTestEvent(db, { title: "Autumn meet", types: [{ name: "Saturday", price: 2500 }] });
  const later = await createTestEvent(db, {
    title: "Autumn meet, new date",
    startsAt: new Date("2027-09-04T09:00:00Z"),
    endsAt: new Date("2027-09-04T17:00:00Z"),
    types: [{ name: "Day ticket", price: newPrice }],
  });
  const cartId = await fillCart(db, buyer.id, [{ ticketTypeId: typeIds[0]!, quantity: 2 }]);
  const now = new Date();
  const result = await startCheckout(db, checkoutFor(buyer, cartId, now));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  await settleOrder(db, paidInFull(result.order, now));
  const orderId = result.order.id;
  const [line] = await db.select({ id: orderItems.id }).from(orderItems).where(eq(orderItems.orderId, orderId));
  return {
    buyer,
    orderId,
    orderItemId: line!.id,
    targetId: later.typeIds[0]!,
    path: `/admin/orders/${orderId}`,
    params: { orderId },
  };
}

function moveForm(base: Awaited<ReturnType<typeof booking>>, over: FormFields = {}): FormFields {
  return {
    intent: "move",
    orderItemId: base.orderItemId,
    quantity: "2",
    toTicketTypeId: base.targetId,
    backTo: "money",
    extra: "charge",
    reason: "The meet moved to September",
    ...over,
  };
}

async function statusesOf(orderId: string) {
  const rows = await database().db.select({ status: tickets.status }).from(tickets).where(eq(tickets.orderId, orderId));
  return rows.map((row) => row.status);
}

describe("/admin/orders/:orderId moving tickets", () => {
  it("sends a visitor to sign in, refuses members and organizers, and moves nothing", async () => {
    const base = await booking();
    const { path, params } = base;
    expect(await answerOf(() => action(site.args(null, { path, params, body: moveForm(base) })))).toMatchObject({
      status: 302,
      location: `/login?redirectTo=${encodeURIComponent(path)}`,
    });
    for (const who of ["member", "organizer"] as const) {
      const answer = await answerOf(() => action(site.args(who, { path, params, body: moveForm(base) })));
      expect(answer.status, who).toBe(403);
    }
    expect(await statusesOf(base.orderId)).toEqual(["valid", "valid"]);
  });

  it("offers the move form to admins only, with the upcoming events' tickets to choose from", async () => {
    const base = await booking();
    const organizer = await answerOf(() => loader(site.args("organizer", { path: base.path, params: base.params })));
    expect(organizer.data).toMatchObject({ canRefund: false, moveTargets: [] });
    const admin = await answerOf(() => loader(site.args("admin", { path: base.path, params: base.params })));
    expect(admin.data?.movableLines).toEqual([
      { id: base.orderItemId, description: expect.stringContaining("Saturday"), unitPrice: 2500, movable: 2 },
    ]);
    const targets = admin.data?.moveTargets as { types: { id: string }[] }[];
    expect(targets.flatMap((event) => event.types.map((type) => type.id))).toContain(base.targetId);
  });

  it("lets an admin move the booking: new tickets on a new order, the buyer emailed, both orders showing the move", async () => {
    const { db } = database();
    const base = await booking();
    const answer = await answerOf(() =>
      action(site.args("admin", { path: base.path, params: base.params, body: moveForm(base) })),
    );
    expect(answer).toMatchObject({ status: 302, location: base.path });
    expect(await statusesOf(base.orderId)).toEqual(["refunded", "refunded"]);
    const [move] = await db.select().from(bookingMoves).where(eq(bookingMoves.fromOrderId, base.orderId));
    expect(await statusesOf(move!.toOrderId)).toEqual(["valid", "valid"]);
    expect(sent.at(-1)).toMatchObject({
      to: base.buyer.email,
      subject: expect.stringContaining("Autumn meet, new date"),
    });

    const before = await answerOf(() => loader(site.args("organizer", { path: base.path, params: base.params })));
    expect(before.data?.moves).toEqual([expect.objectContaining({ direction: "out", quantity: 2 })]);
    const after = await answerOf(() =>
      loader(
        site.args("organizer", { path: `/admin/orders/${move!.toOrderId}`, params: { orderId: move!.toOrderId } }),
      ),
    );
    expect(after.data?.moves).toEqual([expect.objectContaining({ direction: "in", quantity: 2 })]);
  });

  it("answers hostile or incomplete forms with a message by each field, and moves nothing", async () => {
    const base = await booking();
    const cases: [FormFields, Record<string, string>][] = [
      [{ quantity: "lots" }, { quantity: "Enter how many tickets to move as a whole number" }],
      [{ quantity: "0" }, { quantity: "Enter at least 1" }],
      [{ toTicketTypeId: "' or 1=1 --" }, { toTicketTypeId: "Choose the tickets to move them to" }],
      [{ orderItemId: "<script>" }, { orderItemId: "Choose tickets of this order to move" }],
      [{ backTo: "bitcoin" }, { backTo: "Choose where a lower price's difference goes" }],
      [{ extra: "" }, { extra: "Choose whether the buyer pays a higher price's difference" }],
      [{ reason: "" }, { reason: "Say why they move: the buyer reads it, and it is kept in the audit log" }],
      [{ reason: "<b>moved</b>" }, { reason: "Leave out < and >" }],
    ];
    for (const [over, fields] of cases) {
      const answer = await answerOf(() =>
        action(site.args("admin", { path: base.path, params: base.params, body: moveForm(base, over) })),
      );
      expect(answer.status, JSON.stringify(over)).toBe(400);
      expect(answer.data).toMatchObject({ moveErrors: { fields } });
    }
    for (const [over, problem] of [
      [{ toTicketTypeId: "00000000-0000-4000-8000-000000000000" }, "Those tickets could not be found."],
      [{ orderItemId: "00000000-0000-4000-8000-000000000000" }, "Only tickets of this order can be moved."],
      [{ quantity: "3" }, "Only 2 of these tickets can move"],
    ] as const) {
      const answer = await answerOf(() =>
        action(site.args("admin", { path: base.path, params: base.params, body: moveForm(base, over) })),
      );
      expect(answer.status).toBe(409);
      expect(answer.data?.problem).toContain(problem);
    }
    expect(await statusesOf(base.orderId)).toEqual(["valid", "valid"]);
  });
});

describe("a moved booking that costs more", () => {
  it("waits on the buyer's receipt with a Pay button, shown to the buyer alone", async () => {
    const { db } = database();
    const base = await booking(4000);
    const moved = await answerOf(() =>
      action(site.args("admin", { path: base.path, params: base.params, body: moveForm(base) })),
    );
    expect(moved.status).toBe(302);
    const [move] = await db.select().from(bookingMoves).where(eq(bookingMoves.fromOrderId, base.orderId));
    const path = `/transactions/${move!.toOrderId}`;
    const params = { orderId: move!.toOrderId };
    const own = await answerOf(() => receipt.loader(site.args(testSessionUser(base.buyer), { path, params })));
    expect(own.data).toMatchObject({ payable: true, order: { total: 3000, status: "pending" } });
    expect(sent.at(-1)?.text).toContain(`Pay £30.00: http://localhost:3000${path}`);
    const account = await answerOf(() => overview.loader(site.args(testSessionUser(base.buyer), { path: "/members" })));
    expect(account.data?.waiting).toEqual([
      expect.objectContaining({
        title: expect.stringContaining("Your booking moved to Autumn meet, new date — Day ticket"),
        action: { to: path, label: "Pay £30.00" },
      }),
    ]);
    for (const who of ["member", "organizer", "admin"] as const) {
      expect((await answerOf(() => receipt.loader(site.args(who, { path, params })))).status, who).toBe(404);
    }
  });
});
