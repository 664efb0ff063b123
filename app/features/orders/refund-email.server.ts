import { accountEmail, type Branding } from "~/features/accounts/emails.server";
import { formatOrderNumber } from "~/features/commerce/order-number";
import type { RefundedLine, RefundOutcome } from "~/features/commerce/refund.server";
import type { OutboundEmail } from "~/server/mail/mail.server";
import { formatMoney } from "~/ui/money";

export type RefundNotice = {
  to: string;
  number: number;
  currency: string;
  amount: number;
  /** The part of `amount` given back as account credit. */
  credit: number;
  lines: RefundedLine[];
  reason: string;
  /** The whole order is refunded, not only some tickets. */
  whole: boolean;
};

/** The notice of a refund `refundOrder` just recorded, with the reason given for it. */
export function refundNoticeOf(outcome: Extract<RefundOutcome, { ok: true }>, reason: string): RefundNotice {
  return {
    to: outcome.email,
    number: outcome.number,
    currency: outcome.currency,
    amount: outcome.amount,
    credit: outcome.credit,
    lines: outcome.lines,
    reason,
    whole: outcome.status === "refunded",
  };
}

/**
 * Tells the buyer what was refunded and that the tickets no longer work. Sent once for each
 * refund decision: the caller sends it only after `refundOrder` recorded a new refund.
 */
export function refundEmail(brand: Branding, notice: RefundNotice): OutboundEmail {
  const number = formatOrderNumber(notice.number);
  const money = formatMoney(notice.amount - notice.credit, notice.currency);
  const credit = formatMoney(notice.credit, notice.currency);
  const lines = notice.lines.map(
    (line) => `${line.quantity} × ${line.description}: ${formatMoney(line.amount, notice.currency)}`,
  );
  return accountEmail(brand, notice.to, `Refund for order ${number}`, {
    greeting: "Hi,",
    lines: [
      notice.whole ? `We have refunded your order ${number}.` : `We have refunded part of your order ${number}.`,
      ...lines,
      ...(notice.credit > 0
        ? [`${credit} goes to your account credit, which pays first the next time you check out.`]
        : []),
      notice.amount - notice.credit > 0
        ? `${money} goes back to the card you paid with. It usually shows within 5 to 10 working days.`
        : notice.amount > 0
          ? "Nothing goes back to your card."
          : "These tickets were free, so no money moves.",
      `Reason: ${notice.reason}`,
      "The refunded tickets no longer admit anyone at the gate.",
    ],
    footnote: `Questions? Reply to this email and quote ${number}.`,
  });
}
