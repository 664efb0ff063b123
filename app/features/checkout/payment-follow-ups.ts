import type { SettleOutcome } from "~/features/commerce/settle.server";

/**
 * What has to happen after a payment was handled, once its transaction has committed: the orders
 * that became paid (their confirmation follows) and whether a refund now waits to be sent.
 */
export type PaymentFollowUps = { settledOrderIds: string[]; refundsDue: boolean };

export const NO_FOLLOW_UPS: PaymentFollowUps = { settledOrderIds: [], refundsDue: false };

/** Only a settlement that paid the order counts: a replay answers `already_settled` and follows up nothing. */
export function followUpsOf(outcomes: SettleOutcome[]): PaymentFollowUps {
  return {
    settledOrderIds: outcomes.flatMap((outcome) => (outcome.kind === "settled" ? [outcome.orderId] : [])),
    refundsDue: outcomes.some((outcome) => outcome.kind === "refund_required" || outcome.kind === "amount_mismatch"),
  };
}

export function mergeFollowUps(...all: PaymentFollowUps[]): PaymentFollowUps {
  return {
    settledOrderIds: all.flatMap((followUps) => followUps.settledOrderIds),
    refundsDue: all.some((followUps) => followUps.refundsDue),
  };
}
