import { FlaskConical, Timer } from "lucide-react";
import { data, Form, Link, redirect } from "react-router";
import { z } from "zod";
import { followUpPayments } from "~/features/checkout/payment-jobs.server";
import {
  answerSandboxCheckout,
  isHoldOver,
  SANDBOX_CHECKOUT_INTENTS,
  sandboxCheckoutOrder,
} from "~/features/checkout/sandbox-checkout.server";
import { formatOrderNumber } from "~/features/commerce/order-number";
import { formatEventInstant } from "~/features/dates/event-dates";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import { SubmitButton } from "~/ui/form";
import { formatMoney } from "~/ui/money";
import { notFound } from "~/ui/not-found";
import type { Route } from "./+types/sandbox-checkout";

const HOLD_OVER_MESSAGE =
  "The time your places were held for is over, so this order can no longer be paid. Nothing was charged: add the tickets to your cart again.";

const returnTo = (orderId: string) => `/return?order=${orderId}`;
const IntentSchema = z.enum(SANDBOX_CHECKOUT_INTENTS);

/**
 * The page exists only while the test checkout is the site's payment provider: once Stripe takes
 * payments, an order must not be settled here for nothing.
 */
function requireTestPayments(runtime: { payments: { provider: string } }) {
  if (runtime.payments.provider !== "test") notFound();
}

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const runtime = context.get(runtimeContext);
  requireTestPayments(runtime);
  const user = requireUser({ context, url });
  const { db, env } = runtime;
  // Another member's order, or one paid through Stripe, is not there for this member.
  const order = await sandboxCheckoutOrder(db, { orderId: params.orderId, userId: user.id });
  if (!order) notFound();
  // Paid, cancelled or refunded already: /return says how it ended.
  if (!order.payable) throw redirect(returnTo(order.id));
  const now = new Date();
  return {
    number: formatOrderNumber(order.number),
    total: formatMoney(order.total, order.currency),
    lines: order.lines.map((line) => ({
      id: line.id,
      description: line.description,
      quantity: line.quantity,
      unitPrice: formatMoney(line.unitPrice, order.currency),
      amount: formatMoney(line.unitPrice * line.quantity, order.currency),
    })),
    // The order's code: what it took off the total.
    discount:
      order.discount > 0
        ? { label: `Code ${order.voucherCode ?? ""}`, amount: `−${formatMoney(order.discount, order.currency)}` }
        : null,
    // Merch posted to the buyer: the shipping the order's total includes.
    shipping:
      order.shipping > 0
        ? {
            label: order.shippingMethod === "collection" ? "Collection" : "Delivery",
            amount: formatMoney(order.shipping, order.currency),
          }
        : null,
    // Account credit paid part of the order: the rest is what this page takes.
    credit: order.credit > 0 ? `−${formatMoney(order.credit, order.currency)}` : null,
    holdEnds: order.holdExpiresAt ? formatEventInstant(order.holdExpiresAt, env.TIME_ZONE) : null,
    holdOver: isHoldOver(order, now),
  };
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  const runtime = context.get(runtimeContext);
  requireTestPayments(runtime);
  const user = requireUser({ context, url });
  const intent = IntentSchema.safeParse((await request.formData()).get("intent"));
  if (!intent.success) throw data("Choose Pay, Decline or Cancel", { status: 400 });
  const answer = await answerSandboxCheckout(runtime.db, {
    orderId: params.orderId,
    userId: user.id,
    intent: intent.data,
    now: new Date(),
  });
  if (answer.kind === "not_found") notFound();
  if (answer.kind === "hold_over") return data({ error: HOLD_OVER_MESSAGE }, { status: 409 });
  await followUpPayments(runtime, answer.followUps);
  return redirect(returnTo(params.orderId));
}

export default function TestCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { number, total, lines, discount, shipping, credit, holdEnds, holdOver } = loaderData;
  return (
    <main id="main" className="mx-auto w-full max-w-2xl px-4 py-10 sm:px-6 sm:py-16">
      <div
        role="note"
        className="dark-band overflow-hidden rounded-2xl bg-asphalt-950 text-white ring-1 ring-accent/60 shadow-xl"
      >
        <div aria-hidden className="h-2 bg-[repeating-linear-gradient(135deg,#ff7a1a_0_14px,#111214_14px_28px)]" />
        <div className="flex items-start gap-4 p-5 sm:p-6">
          <FlaskConical aria-hidden className="mt-1 size-7 shrink-0 text-accent-strong" />
          <div>
            <p className="wide text-xl font-extrabold sm:text-2xl">Test mode — no money moves</p>
            <p className="mt-1 text-asphalt-300">
              This site has no payment provider set up, so this page stands in for one. Pay settles the order exactly as
              a real payment would, without charging anyone.
            </p>
          </div>
        </div>
      </div>

      <section aria-labelledby="order-title" className="mt-8 rounded-3xl bg-surface-raised p-6 ring-1 ring-line sm:p-8">
        <p className="text-sm font-semibold uppercase tracking-widest text-muted">Order</p>
        <h1 id="order-title" className="wide tabular mt-1 text-3xl font-extrabold sm:text-4xl">
          {number}
        </h1>
        {holdEnds ? (
          <p className={`mt-3 flex items-start gap-2 text-sm ${holdOver ? "text-accent-ink" : "text-muted"}`}>
            <Timer aria-hidden className="mt-0.5 size-4 shrink-0" />
            {holdOver ? `Your places were held until ${holdEnds}.` : `Your places are held until ${holdEnds}.`}
          </p>
        ) : null}

        <table className="mt-6 w-full text-left">
          <caption className="sr-only">What you are paying for</caption>
          <thead className="sr-only">
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line border-y border-line">
            {lines.map((line) => (
              <tr key={line.id}>
                <td className="py-3 pr-4">
                  <span className="font-semibold">{line.description}</span>
                  <span className="tabular block text-sm text-muted">
                    {line.quantity} × {line.unitPrice}
                  </span>
                </td>
                <td className="tabular py-3 text-right align-top font-semibold">{line.amount}</td>
              </tr>
            ))}
            {discount ? (
              <tr>
                <td className="py-3 pr-4 font-semibold">{discount.label}</td>
                <td className="tabular py-3 text-right font-semibold">{discount.amount}</td>
              </tr>
            ) : null}
            {shipping ? (
              <tr>
                <td className="py-3 pr-4 font-semibold">{shipping.label}</td>
                <td className="tabular py-3 text-right font-semibold">{shipping.amount}</td>
              </tr>
            ) : null}
            {credit ? (
              <tr>
                <td className="py-3 pr-4 font-semibold">Account credit</td>
                <td className="tabular py-3 text-right font-semibold">{credit}</td>
              </tr>
            ) : null}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" className="pt-4 text-lg font-bold">
                Total
              </th>
              <td className="wide tabular pt-4 text-right text-2xl font-extrabold">{total}</td>
            </tr>
          </tfoot>
        </table>

        {holdOver || actionData?.error ? (
          <div role="alert" className="mt-8">
            <p className="font-semibold">{actionData?.error ?? HOLD_OVER_MESSAGE}</p>
            <Link to="/cart" className="mt-3 inline-block font-semibold text-accent-ink underline">
              Back to your cart
            </Link>
          </div>
        ) : (
          <Form method="post" className="mt-8 grid gap-3 sm:grid-cols-3">
            <div className="sm:col-span-3">
              <SubmitButton name="intent" value="pay" pendingLabel="Paying…">
                Pay {total}
              </SubmitButton>
            </div>
            <SubmitButton name="intent" value="decline" variant="secondary" pendingLabel="Declining…">
              Decline
            </SubmitButton>
            <div className="sm:col-span-2">
              <SubmitButton name="intent" value="cancel" variant="secondary" pendingLabel="Cancelling…">
                Cancel
              </SubmitButton>
            </div>
          </Form>
        )}
        {holdOver || actionData?.error ? null : (
          <p className="mt-4 text-sm text-muted">
            Decline acts as a refused card; Cancel as leaving the payment page. Either way your places are released.
          </p>
        )}
      </section>
    </main>
  );
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Test checkout · ${data.number}` : "Test checkout" },
  { name: "robots", content: "noindex" },
];
