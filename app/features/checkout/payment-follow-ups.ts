import type { SettleOutcome } from "~/features/commerce/settle.server";

/**
 * What has to happen after a payment was handled, once its transaction has committed: the orders
 * that became paid (their confirmation follows) and whether a refund now waits to be sent.
 */
export type PaymentFollowUps = {
  settledOrderIds: string[];
  /** Orders whose payment was refused and goes back whole: the buyer is told why. */
  refusedOrderIds: string[];
  refundsDue: boolean;
};

export const NO_FOLLOW_UPS: PaymentFollowUps = { settledOrderIds: [], refusedOrderIds: [], refundsDue: false };

/** Only a settlement that paid the order counts: a replay answers `already_settled` and follows up nothing. */
export function followUpsOf(outcomes: SettleOutcome[]): PaymentFollowUps {
  return {
    settledOrderIds: outcomes.flatMap((outcome) => (outcome.kind === "settled" ? [outcome.orderId] : [])),
    refusedOrderIds: outcomes.flatMap((outcome) => (outcome.kind === "refund_required" ? [outcome.orderId] : [])),
    refundsDue: outcomes.some((outcome) => outcome.kind === "refund_required" || outcome.kind === "amount_mismatch"),
  };
}

export function mergeFollowUps(...all: PaymentFollowUps[]): PaymentFollowUps {
  return {
    settledOrderIds: all.flatMap((followUps) => followUps.settledOrderIds),
    refusedOrderIds: all.flatMap((followUps) => followUps.refusedOrderIds),
    refundsDue: all.some((followUps) => followUps.refundsDue),
  };
}
