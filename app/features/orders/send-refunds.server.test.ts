import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { at, buyPlaces, orderState, pendingOrder } from "~/features/checkout/payments.test-support";
import { settleOrder } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { sandboxGateway } from "~/server/payments/sandbox-provider";
import { orderHistory, transactions } from "../../../db/schema";
import { sendPendingRefunds } from "./send-refunds.server";

const database = freshDatabasePerFile();
const sandbox = sandboxGateway();
afterEach(() => {
  sandbox.controls.unreachable = false;
  sandbox.controls.refuseRefunds = false;
});

/** A Stripe payment that arrived too late for its places: settlement records a pending refund. */
async function refundDue() {
  const { db } = database();
  const { order, ticketTypeId } = await pendingOrder(db, { provider: "stripe", capacity: 2, quantity: 2 });
  await buyPlaces(db, ticketTypeId, 2, at(20));
  const outcome = await settleOrder(db, {
    orderId: order.id,
    provider: "stripe",
    paymentReference: `pi_late_${order.id}`,
    amount: order.total,
    currency: "gbp",
    now: at(21),
  });
  expect(outcome.kind).toBe("refund_required");
  const [refund] = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(eq(transactions.orderId, order.id), eq(transactions.kind, "refund")));
  return { order, refundId: refund!.id };
}

describe("sendPendingRefunds", () => {
  it("sends each pending refund once, keyed by the refund's own id", async () => {
    const { db } = database();
    const { order, refundId } = await refundDue();

    const run = await sendPendingRefunds(db, sandbox.gateway, { now: at(22) });
    expect(run).toEqual({ sent: 1, failed: 0, retry: [] });
    expect(sandbox.refunds.get(refundId)).toEqual({
      reference: expect.stringMatching(/^re_sandbox_/),
      paymentReference: `pi_late_${order.id}`,
      amount: order.total,
    });
    const refund = (await orderState(db, order.id)).ledger.find((row) => row.kind === "refund");
    expect(refund).toEqual({
      kind: "refund",
      status: "succeeded",
      amount: order.total,
      reference: sandbox.refunds.get(refundId)!.reference,
    });

    expect(await sendPendingRefunds(db, sandbox.gateway, { now: at(23) })).toEqual({ sent: 0, failed: 0, retry: [] });
    expect(sandbox.refunds.size).toBe(1);
  });

  it("keeps a refund pending while the provider cannot be reached, and sends it on a later run", async () => {
    const { db } = database();
    const { order, refundId } = await refundDue();
    sandbox.controls.unreachable = true;
    const failed = await sendPendingRefunds(db, sandbox.gateway, { now: at(22) });
    expect(failed.retry.map((entry) => entry.transactionId)).toEqual([refundId]);
    expect((await orderState(db, order.id)).ledger.find((row) => row.kind === "refund")?.status).toBe("pending");

    sandbox.controls.unreachable = false;
    expect((await sendPendingRefunds(db, sandbox.gateway, { now: at(30) })).sent).toBe(1);
  });

  it("marks a refund the provider refuses for good as failed, and says so in the order's history", async () => {
    const { db } = database();
    const { order } = await refundDue();
    sandbox.controls.refuseRefunds = true;
    expect(await sendPendingRefunds(db, sandbox.gateway, { now: at(22) })).toEqual({ sent: 0, failed: 1, retry: [] });
    expect((await orderState(db, order.id)).ledger.find((row) => row.kind === "refund")?.status).toBe("failed");
    const notes = await db
      .select({ note: orderHistory.note })
      .from(orderHistory)
      .where(eq(orderHistory.orderId, order.id));
    expect(notes.map((row) => row.note)).toContain("Refund of £25.00 failed: Charge has already been refunded");
  });

  it("leaves refunds of another provider to it", async () => {
    const { db } = database();
    const { order } = await pendingOrder(db, { provider: "test" });
    await settleOrder(db, {
      orderId: order.id,
      provider: "test",
      paymentReference: `test_pay_wrong_${order.id}`,
      amount: 1,
      now: at(2),
    });
    await sendPendingRefunds(db, sandbox.gateway, { now: at(3) });
    expect((await orderState(db, order.id)).ledger.find((row) => row.kind === "refund")?.status).toBe("pending");
  });
});
