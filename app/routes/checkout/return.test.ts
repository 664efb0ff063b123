import { describe, expect, it } from "vitest";
import { BUYER_CANCELLED_REASON } from "~/features/checkout/payment-state.server";
import { orderState, pendingOrder } from "~/features/checkout/payments.test-support";
import { startOrderPayment } from "~/features/checkout/start-payment.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { sandboxGateway } from "~/server/payments/sandbox-provider.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { routeTestSite } from "~/web/route-calls.test-support";
import { action, loader } from "./return";

// Where the payment provider sends the buyer back, called as React Router calls it.
const database = freshDatabasePerFile();
const payments = sandboxGateway({ siteUrl: "http://localhost:3000" });

const site = routeTestSite(database, { name: "return", roles: [], runtime: () => ({ payments }) });

async function startedOrder() {
  const { db } = database();
  const pending = await pendingOrder(db, { provider: "test" });
  await startOrderPayment(db, payments, {
    orderId: pending.order.id,
    userId: pending.member.id,
    siteUrl: "http://localhost:3000",
    now: new Date(),
  });
  return pending;
}

function argsFor(member: { id: string; email: string }, path: string, method = "GET") {
  const who = testSessionUser({ ...member, name: "Buyer" });
  return site.args(who, { path, body: method === "POST" ? { intent: "cancel" } : undefined });
}

describe("/return", () => {
  it("only offers to cancel when the provider's cancel link is followed: the GET writes nothing", async () => {
    const { order, member } = await startedOrder();
    const shown = (await loader(argsFor(member, `/return?order=${order.id}&cancelled=1`))) as {
      leftPayment: boolean;
      paymentUrl: string | null;
    };
    expect(shown).toMatchObject({ leftPayment: true, paymentUrl: `/checkout/test/${order.id}` });
    // Followed twice (a prefetch, a second tab): still nothing written.
    await loader(argsFor(member, `/return?order=${order.id}&cancelled=1`));
    expect(await orderState(database().db, order.id)).toMatchObject({ status: "pending", holds: ["active"] });
  });

  it("cancels on the page's POST and sends the buyer back to the cart with the reason", async () => {
    const { order, member } = await startedOrder();
    const thrown = await action(argsFor(member, `/return?order=${order.id}&cancelled=1`, "POST")).then(
      () => null,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get("Location")).toBe("/cart");
    expect(await orderState(database().db, order.id)).toMatchObject({
      status: "cancelled",
      failureReason: BUYER_CANCELLED_REASON,
    });
  });
});
