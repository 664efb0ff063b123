import { and, desc, eq } from "drizzle-orm";
import { accountEmail } from "~/features/accounts/emails.server";
import { formatOrderNumber } from "~/features/commerce/order-number";
import { defineJob, type JobQueue } from "~/server/jobs/queue.server";
import { sendOnce } from "~/server/mail/sent-once.server";
import { formatMoney } from "~/ui/money";
import { orderEmails, orders, transactions } from "../../../db/schema";
import type { OrderEmailDeps } from "./order-email.server";

/**
 * The buyer's email when a payment could not be accepted and goes back to them whole: the draw
 * closed or the places went before it arrived, a break from prize draws or a lowered limit began
 * after the order was made, a credit card the draw rules refuse, an order already cancelled or
 * paid. Says what is refunded and why, once per order, however often the payment is replayed.
 */
export async function sendRefusedPaymentEmail(deps: OrderEmailDeps, orderId: string) {
  const { db, mail, env } = deps;
  const [refused] = await db
    .select({
      email: orders.email,
      number: orders.number,
      amount: transactions.amount,
      currency: transactions.currency,
      reason: transactions.reason,
    })
    .from(transactions)
    .innerJoin(orders, eq(orders.id, transactions.orderId))
    .where(and(eq(transactions.orderId, orderId), eq(transactions.kind, "refund")))
    .orderBy(desc(transactions.createdAt))
    .limit(1);
  if (!refused?.email) return "not_found" as const;
  const number = formatOrderNumber(refused.number);
  const email = accountEmail(
    { siteName: env.SITE_NAME, siteUrl: env.SITE_URL },
    refused.email,
    `Your payment for order ${number} is being refunded`,
    {
      greeting: "Hi,",
      lines: [
        `We could not accept your payment for order ${number}, so nothing was bought and the whole payment goes back to you.`,
        `Reason: ${refused.reason ?? "The order could no longer be completed"}.`,
        `${formatMoney(refused.amount, refused.currency)} goes back to the card you paid with. It usually shows within 5 to 10 working days.`,
      ],
      footnote: `Questions? Reply to this email and quote ${number}.`,
    },
  );
  return sendOnce(db, mail, { table: orderEmails, key: { orderId, kind: "payment_refused" }, email });
}

export const refusedPaymentEmailJob = defineJob<{ orderId: string }, OrderEmailDeps>({
  name: "refused-payment-email",
  expireInSeconds: 120,
  handler: async ({ orderId }, services) => {
    await sendRefusedPaymentEmail(services, orderId);
  },
});

/** Queues the email after a settlement refused a payment (a replay queues it again; it goes once). */
export async function enqueueRefusedPaymentEmail(jobs: Pick<JobQueue, "enqueue">, orderId: string) {
  await jobs.enqueue(refusedPaymentEmailJob, { orderId }, { singletonKey: orderId });
}
