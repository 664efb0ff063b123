import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderState, pendingOrder } from "~/features/checkout/payments.test-support";
import { action, loader } from "~/routes/checkout/sandbox-checkout";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { testSessionUser } from "~/server/session-user.test-support";
import { answerOf, routeArgs } from "~/web/route-calls.test-support";
import { orders } from "../../../db/schema";

// The test checkout's page, called as React Router calls it.
const database = freshDatabasePerFile();

function argsFor(provider: "test" | "stripe", member: { id: string; email: string }, orderId: string, method = "GET") {
  return routeArgs({
    db: database().db,
    env: { TIME_ZONE: "Europe/London" },
    runtime: { payments: { provider } },
    who: testSessionUser({ ...member, name: "Buyer" }),
    path: `/checkout/test/${orderId}`,
    params: { orderId },
    body: method === "POST" ? { intent: "pay" } : undefined,
  });
}

const statusOf = async (call: () => unknown) => (await answerOf(call)).status;

describe("/checkout/test/:orderId", () => {
  it("is not there once another provider takes the payments: Pay settles nothing", async () => {
    const { order, member } = await pendingOrder(database().db, { provider: "test" });
    expect(await statusOf(() => loader(argsFor("stripe", member, order.id)))).toBe(404);
    expect(await statusOf(() => action(argsFor("stripe", member, order.id, "POST")))).toBe(404);
    expect(await orderState(database().db, order.id)).toMatchObject({ status: "pending", tickets: 0, ledger: [] });
    expect(await statusOf(() => loader(argsFor("test", member, order.id)))).toBe(200);
  });

  it("refuses Pay with a message once the hold ran out", async () => {
    const { order, member } = await pendingOrder(database().db, { provider: "test" });
    await database()
      .db.update(orders)
      .set({ holdExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(orders.id, order.id));
    const shown = (await loader(argsFor("test", member, order.id))) as { holdOver: boolean };
    expect(shown.holdOver).toBe(true);
    const answer = (await action(argsFor("test", member, order.id, "POST"))) as unknown as {
      data: { error: string };
      init: { status: number };
    };
    expect(answer.init.status).toBe(409);
    expect(answer.data.error).toMatch(/can no longer be paid. Nothing was charged/);
    expect(await orderState(database().db, order.id)).toMatchObject({ status: "pending", tickets: 0, ledger: [] });
  });
});
