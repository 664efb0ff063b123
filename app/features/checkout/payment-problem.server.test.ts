import { describe, expect, it } from "vitest";
import { answerSandboxCheckout, SANDBOX_DECLINED_REASON } from "~/features/checkout/sandbox-checkout.server";
import { expireHolds, HOLD_EXPIRED_REASON } from "~/features/commerce/holds.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { sandboxGateway } from "~/server/payments/sandbox-provider.server";
import { lastPaymentProblem } from "./payment-problem.server";
import { BUYER_CANCELLED_REASON } from "./payment-state.server";
import { at, pendingOrder } from "./payments.test-support";
import { startOrderPayment } from "./start-payment.server";

const database = freshDatabasePerFile();
const gateway = sandboxGateway({ siteUrl: "http://club.test" });

/** A member's order sent to the test checkout, answered with `intent` there. */
async function answered(intent: "pay" | "decline" | "cancel") {
  const { db } = database();
  const pending = await pendingOrder(db);
  await startOrderPayment(db, gateway, {
    orderId: pending.order.id,
    userId: pending.member.id,
    siteUrl: "http://club.test",
    now: at(1),
  });
  await answerSandboxCheckout(db, { orderId: pending.order.id, userId: pending.member.id, intent, now: at(2) });
  return pending;
}

describe("the last payment problem, shown on the cart", () => {
  it("is the declined card's reason, with the order it belongs to", async () => {
    const { member, order } = await answered("decline");
    expect(await lastPaymentProblem(database().db, member.id)).toEqual({
      kind: "declined",
      reason: SANDBOX_DECLINED_REASON,
      orderNumber: order.number,
      at: expect.any(Date),
    });
  });

  it("says the buyer cancelled, or that the hold ran out, when that is how the order ended", async () => {
    const { db } = database();
    const cancelled = await answered("cancel");
    expect(await lastPaymentProblem(db, cancelled.member.id)).toMatchObject({
      kind: "cancelled",
      reason: BUYER_CANCELLED_REASON,
    });

    const left = await pendingOrder(db);
    await expireHolds(db, at(30));
    expect(await lastPaymentProblem(db, left.member.id)).toMatchObject({
      kind: "expired",
      reason: HOLD_EXPIRED_REASON,
    });
  });

  it("is nothing for a paid order, an order still being paid, or a member who never paid", async () => {
    const { db } = database();
    const paid = await answered("pay");
    expect(await lastPaymentProblem(db, paid.member.id)).toBeNull();
    const pending = await pendingOrder(db);
    expect(await lastPaymentProblem(db, pending.member.id)).toBeNull();
    expect(await lastPaymentProblem(db, "no-such-member")).toBeNull();
  });
});
