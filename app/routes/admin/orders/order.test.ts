import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutFor, createTestEvent, fillCart, paidInFull } from "~/features/checkout/stock.test-support";
import { creditStatement } from "~/features/credit/credit.server";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testAccount } from "~/server/session-user.test-support";
import { answerOf, recordingOutbox, routeTestSite } from "~/web/route-calls.test-support";
import { auditLog, orders, transactions } from "../../../../db/schema";
import { action, loader } from "./order";

// /admin/orders/:orderId's refund to account credit, called as React Router calls it, by a
// visitor and each role.
const database = freshDatabasePerFile();
const { outbox, sent } = recordingOutbox();
const site = routeTestSite(database, {
  name: "admin-order-credit",
  runtime: () => ({ jobs: { enqueue: async () => null }, outbox }),
});

async function paidOrder() {
  const { db } = database();
  const buyer = await testAccount(db, "member", "Credit buyer");
  const { typeIds } = await createTestEvent(db, { types: [{ name: "Adult", price: 2500 }] });
  const cartId = await fillCart(db, buyer.id, [{ ticketTypeId: typeIds[0]!, quantity: 2 }]);
  const now = new Date();
  const result = await startCheckout(db, checkoutFor(buyer, cartId, now));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  await settleOrder(db, paidInFull(result.order, now));
  const orderId = result.order.id;
  return { buyer, orderId, path: `/admin/orders/${orderId}`, params: { orderId } };
}

const toCredit = {
  intent: "refund",
  scope: "order",
  reason: "Moved to next year",
  refundedBefore: "0",
  to: "credit",
  creditMonths: "6",
};

describe("/admin/orders/:orderId refund to account credit", () => {
  it("sends a visitor to sign in, refuses members and organizers, and refunds nothing", async () => {
    const { orderId, path, params } = await paidOrder();
    expect(await answerOf(() => action(site.args(null, { path, params, body: toCredit })))).toMatchObject({
      status: 302,
      location: `/login?redirectTo=${encodeURIComponent(path)}`,
    });
    for (const who of ["member", "organizer"] as const) {
      expect((await answerOf(() => action(site.args(who, { path, params, body: toCredit })))).status, who).toBe(403);
    }
    const [order] = await database().db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe("paid");
  });

  it("shows organizers the order and that a refund may go to credit, but only admins may refund", async () => {
    const { path, params } = await paidOrder();
    for (const who of ["organizer", "admin"] as const) {
      const page = await answerOf(() => loader(site.args(who, { path, params })));
      expect(page.status, who).toBe(200);
      expect(page.data, who).toMatchObject({ order: { hasAccount: true, credit: 0 }, canRefund: who === "admin" });
    }
  });

  it("lets an admin refund to the buyer's account credit, kept for the months chosen, with no money sent", async () => {
    const { db } = database();
    const { buyer, orderId, path, params } = await paidOrder();
    const answer = await answerOf(() => action(site.args("admin", { path, params, body: toCredit })));
    expect(answer.status).toBe(302);
    const [order] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe("refunded");
    const refunds = await db
      .select()
      .from(transactions)
      .where(and(eq(transactions.orderId, orderId), eq(transactions.kind, "refund")));
    expect(refunds).toEqual([]);
    const statement = await creditStatement(db, { userId: buyer.id, now: new Date() });
    expect(statement.available).toBe(5000);
    const expiresAt = statement.expiring[0]?.expiresAt;
    const months = expiresAt ? (expiresAt.getTime() - Date.now()) / (30.44 * 86_400_000) : 0;
    expect(Math.round(months)).toBe(6);
    const audits = await db.select().from(auditLog).where(eq(auditLog.subjectId, buyer.id));
    expect(audits.map((row) => row.action)).toContain("credit.grant");
    expect(sent.at(-1)?.text).toContain("£50.00 goes to your account credit");
  });
});
