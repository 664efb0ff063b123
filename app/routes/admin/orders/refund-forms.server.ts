import { data } from "react-router";
import type { Branding } from "~/features/accounts/emails.server";
import { queueRefunds } from "~/features/checkout/payment-jobs.server";
import { formatOrderNumber } from "~/features/commerce/order-number";
import type { RefundOutcome } from "~/features/commerce/refund.server";
import { monthsAfter } from "~/features/credit/credit-rules";
import { getEventCancellation } from "~/features/events/organizer/queries.server";
import type { RefundErrors, RefundReview } from "~/features/orders/admin-order-parts";
import type { OrderDetail } from "~/features/orders/admin-orders.server";
import { RefundFormSchema } from "~/features/orders/admin-schemas";
import { refundEventHolders } from "~/features/orders/bulk-refunds.server";
import { refundEmail, refundNoticeOf } from "~/features/orders/refund-email.server";
import { refundOrder } from "~/features/selling/selling.server";
import type { Db } from "~/server/db/client.server";
import { redirectWithFlash } from "~/server/flash.server";
import type { JobQueue } from "~/server/jobs/queue.server";
import { getLog } from "~/server/log.server";
import type { Outbox } from "~/server/messages.server";
import { formatMoney } from "~/ui/money";
import { notFound } from "~/ui/not-found";
import { countOf } from "~/ui/plural";

// The staff refund forms, shared by the order page (one order, or one line of it) and a
// cancelled event's page (every ticket holder at once).

/** What the refund forms work with: the database, the job queue, the outbox and who is acting. */
type RefundCall = { db: Db; jobs: JobQueue; outbox: Pick<Outbox, "sendEmail">; actorId: string; brand: Branding };

export type RefundActionData = { errors?: RefundErrors; review?: RefundReview; problem?: string };

/**
 * Asks the payments job to send the refunds just recorded. If the queue cannot take it, the job's
 * own sweep still finds the pending refunds, so this never fails the staff member's request.
 */
async function sendRefundsSoon(jobs: JobQueue) {
  await queueRefunds(jobs).catch((error: unknown) =>
    getLog().warn({ err: error }, "could not queue the refund job; its sweep will send the refund"),
  );
}

/** Tells the buyer, once for each refund recorded (a refused repeat sends nothing). */
async function emailRefund(
  { brand, outbox }: Pick<RefundCall, "brand" | "outbox">,
  outcome: Extract<RefundOutcome, { ok: true }>,
  reason: string,
) {
  await outbox.sendEmail(refundEmail(brand, refundNoticeOf(outcome, reason)));
}

/**
 * The order page's refund forms: "review" answers what would be refunded; "refund" does it, emails
 * the buyer and goes back to the order with a message. Bad input answers 400 with field messages.
 */
export async function orderRefundAction(call: RefundCall & { detail: OrderDetail; path: string }, formData: FormData) {
  const parsed = RefundFormSchema.safeParse(Object.fromEntries(formData));
  const key = String(formData.get("scope")) === "item" ? String(formData.get("orderItemId") ?? "") : "order";
  if (!parsed.success) {
    const errors: RefundErrors = { key };
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === "reason") errors.reason ??= issue.message;
      else errors.quantity ??= issue.message;
    }
    return data<RefundActionData>({ errors }, { status: 400 });
  }
  const form = parsed.data;
  const { detail } = call;
  const currency = detail.order.currency;
  const item = form.scope === "item" ? detail.items.find((line) => line.id === form.orderItemId) : undefined;
  if (form.scope === "item" && !item) {
    return data<RefundActionData>({ problem: "That line is not part of this order." }, { status: 400 });
  }

  if (form.intent === "review") {
    if (item && (form.quantity ?? 0) > item.refundable) {
      const quantity = `Only ${item.refundable} can be refunded`;
      return data<RefundActionData>({ errors: { key, quantity } }, { status: 400 });
    }
    const lines = item
      ? [{ ...item, count: form.quantity! }]
      : detail.items.map((line) => ({ ...line, count: line.refundable }));
    const amount = lines.reduce((sum, line) => sum + line.unitPrice * line.count, 0);
    const count = lines.reduce((sum, line) => sum + line.count, 0);
    const summary = `${countOf(count, "ticket", "tickets")} of ${formatOrderNumber(detail.order.number)}: ${lines
      .filter((line) => line.count > 0)
      .map((line) => `${line.count} × ${line.description} (${formatMoney(line.unitPrice, currency)})`)
      .join(", ")}.`;
    return {
      review: {
        scope: form.scope,
        orderItemId: form.orderItemId,
        quantity: form.quantity,
        reason: form.reason,
        refundedBefore: form.refundedBefore,
        summary,
        amount,
      },
    } satisfies RefundActionData;
  }

  const now = new Date();
  const outcome = await refundOrder(call.db, {
    orderId: detail.order.id,
    items: item ? [{ orderItemId: item.id, quantity: form.quantity! }] : undefined,
    actorId: call.actorId,
    reason: form.reason,
    now,
    refundedBefore: form.refundedBefore,
    to:
      form.to === "credit"
        ? { kind: "credit", expiresAt: form.creditMonths === 0 ? null : monthsAfter(now, form.creditMonths) }
        : { kind: "money" },
  });
  if (!outcome.ok) return data<RefundActionData>({ problem: outcome.problem }, { status: 409 });
  await sendRefundsSoon(call.jobs);
  await emailRefund(call, outcome, form.reason);
  const tickets = outcome.lines.reduce((sum, line) => sum + line.quantity, 0);
  const asCredit =
    outcome.credit > 0 ? `, ${formatMoney(outcome.credit, outcome.currency)} of it to account credit` : "";
  return redirectWithFlash(call.path, {
    kind: "success",
    message: `Refunded ${countOf(tickets, "ticket", "tickets")} (${formatMoney(outcome.amount, outcome.currency)}${asCredit}). The buyer has been emailed.`,
  });
}

/**
 * "Refund all ticket holders" on a cancelled event: every paid order holding its tickets is
 * refunded for those tickets, each in its own transaction, and each buyer is emailed. Running it
 * again refunds only what is left, so a timeout halfway is fixed by pressing the button again.
 */
export async function refundHoldersAction(call: RefundCall & { eventId: string; path: string }) {
  const event = await getEventCancellation(call.db, call.eventId);
  if (!event) notFound();
  if (event.status !== "cancelled") {
    return redirectWithFlash(call.path, {
      kind: "error",
      message: "Only a cancelled event's tickets are refunded in bulk.",
    });
  }
  const reason = `${event.title} was cancelled${event.cancelReason ? `: ${event.cancelReason}` : ""}`.slice(0, 300);
  const outcome = await refundEventHolders(call.db, {
    eventId: call.eventId,
    actorId: call.actorId,
    reason,
    now: new Date(),
  });
  if (outcome.refunded.length > 0) await sendRefundsSoon(call.jobs);
  for (const refunded of outcome.refunded) await emailRefund(call, refunded, reason);
  const done = outcome.refunded.length;
  const message =
    done === 0 && outcome.failed === 0
      ? "Every ticket holder has already been refunded."
      : `Refunded ${countOf(done, "order", "orders")}; the buyers have been emailed.${
          outcome.failed > 0
            ? ` ${outcome.failed} could not be refunded: press the button again, or refund them from Orders.`
            : ""
        }`;
  return redirectWithFlash(call.path, { kind: outcome.failed > 0 ? "error" : "success", message });
}
