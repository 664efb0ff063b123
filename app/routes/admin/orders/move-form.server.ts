import { data } from "react-router";
import type { Branding } from "~/features/accounts/emails.server";
import { queueRefunds } from "~/features/checkout/payment-jobs.server";
import { formatOrderNumber } from "~/features/commerce/order-number";
import type { MoveErrors } from "~/features/moves/move-form";
import { moveBooking } from "~/features/moves/moves.server";
import { MoveFormSchema } from "~/features/moves/schemas";
import type { OrderDetail } from "~/features/orders/admin-orders.server";
import { afterOrderSettled } from "~/features/orders/after-settlement.server";
import type { Db } from "~/server/db/client.server";
import { redirectWithFlash } from "~/server/flash.server";
import type { JobQueue } from "~/server/jobs/queue.server";
import { getLog } from "~/server/log.server";
import type { Outbox } from "~/server/messages.server";
import type { PaymentGateway } from "~/server/payments/payments.server";
import { formatMoney } from "~/ui/money";
import { countOf } from "~/ui/plural";

export type MoveActionData = { moveErrors: MoveErrors; problem?: string };

/**
 * The order page's "Move tickets": checks the form, moves the booking, then what follows a paid
 * order (its confirmation with the new e-tickets), any refund to the card, and the buyer's email.
 * Bad input answers 400 with a message by each field; a move that cannot be made, 409.
 */
export async function orderMoveAction(
  call: {
    db: Db;
    jobs: JobQueue;
    outbox: Pick<Outbox, "sendEmail">;
    payments: Pick<PaymentGateway, "provider">;
    actorId: string;
    brand: Branding;
    detail: OrderDetail;
    path: string;
  },
  formData: FormData,
) {
  const values = Object.fromEntries(formData);
  const parsed = MoveFormSchema.safeParse(values);
  const orderItemId = typeof values.orderItemId === "string" ? values.orderItemId : "";
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
    return data<MoveActionData>({ moveErrors: { orderItemId, fields } }, { status: 400 });
  }
  const form = parsed.data;
  const moved = await moveBooking(
    call.db,
    {
      orderId: call.detail.order.id,
      orderItemId: form.orderItemId,
      quantity: form.quantity,
      toTicketTypeId: form.toTicketTypeId,
      backTo: form.backTo,
      extra: form.extra,
      reason: form.reason,
      actorId: call.actorId,
      now: new Date(),
      currency: call.detail.order.currency,
      provider: call.payments.provider,
    },
    call.brand,
  );
  if (!moved.ok) {
    return data<MoveActionData>({ moveErrors: null, problem: moved.message }, { status: 409 });
  }
  if (moved.newOrder.paid) {
    await afterOrderSettled(call, moved.newOrder.id).catch((error: unknown) =>
      getLog().warn({ err: error }, "could not queue the moved booking's confirmation; the sweep sends it"),
    );
  }
  if (moved.back.refundId) {
    await queueRefunds(call.jobs).catch((error: unknown) =>
      getLog().warn({ err: error }, "could not queue the refund job; its sweep will send the refund"),
    );
  }
  await call.outbox.sendEmail(moved.email);
  const money = (amount: number) => formatMoney(amount, call.detail.order.currency);
  const newOrder = formatOrderNumber(moved.newOrder.number);
  const settled = moved.newOrder.paid
    ? `the new tickets are on ${newOrder}`
    : `${newOrder} waits for the buyer to pay ${money(moved.newOrder.toPay)}`;
  const back = moved.back.amount > 0 ? `; ${money(moved.back.amount)} goes back to the buyer` : "";
  return redirectWithFlash(call.path, {
    kind: "success",
    message: `Moved ${countOf(form.quantity, "ticket", "tickets")}: ${settled}${back}. The buyer has been emailed.`,
  });
}
