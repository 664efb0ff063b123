import { LoaderCircle } from "lucide-react";
import { useEffect } from "react";
import { data, Form, Link, redirect, useNavigate } from "react-router";
import type { PaymentFollowUps } from "~/features/checkout/payment-follow-ups";
import { followUpPayments } from "~/features/checkout/payment-jobs.server";
import { confirmReturn, type ReturnAnswer } from "~/features/checkout/return.server";
import { formatOrderNumber } from "~/features/commerce/order-number";
import { requireUser } from "~/server/auth/session.server";
import { runtimeContext } from "~/server/context.server";
import type { Runtime } from "~/server/runtime.server";
import { SubmitButton } from "~/ui/form";
import { formatMoney } from "~/ui/money";
import { notFound } from "~/ui/not-found";
import { TrackArt } from "~/ui/track-art";
import type { Route } from "./+types/return";

/**
 * Where the payment provider sends the buyer back: on to /success once the
 * order is paid, back to the cart with the reason when it failed or was cancelled, and otherwise
 * "Confirming your payment…", looked at again every 2 seconds: by the page's script, or without
 * JavaScript by a refresh inside <noscript> (a timed refresh for everyone would take the page
 * away from someone still reading it, WCAG 2.2.1).
 *
 * The provider's cancel link (`cancelled=1`) is a GET, which anything may follow (a prefetch, a
 * link checker, a second tab): it only offers "Cancel this order" or "Back to payment". The
 * cancel itself is the form's POST; an order left alone expires when its hold ends.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser({ context, url });
  const runtime = context.get(runtimeContext);
  const { answer, followUps } = await confirmReturn(runtime.db, runtime.payments, {
    userId: user.id,
    orderId: url.searchParams.get("order"),
    sessionId: url.searchParams.get("session_id"),
    cancelled: false,
    now: new Date(),
  });
  return answerReturn(runtime, answer, followUps, url.searchParams.get("cancelled") === "1");
}

export async function action({ context, url, request }: Route.ActionArgs) {
  const user = requireUser({ context, url });
  const runtime = context.get(runtimeContext);
  const form = await request.formData();
  if (form.get("intent") !== "cancel") throw data("Choose Cancel this order", { status: 400 });
  const { answer, followUps } = await confirmReturn(runtime.db, runtime.payments, {
    userId: user.id,
    orderId: url.searchParams.get("order"),
    cancelled: true,
    now: new Date(),
  });
  return answerReturn(runtime, answer, followUps, false);
}

async function answerReturn(runtime: Runtime, answer: ReturnAnswer, followUps: PaymentFollowUps, leftPayment: boolean) {
  await followUpPayments(runtime, followUps);
  switch (answer.kind) {
    case "not_found":
      return notFound();
    case "paid":
      throw redirect(`/success?order=${answer.orderId}`);
    case "failed":
      // The cart says why, in place, until the next try.
      throw redirect("/cart");
    case "pending":
      return {
        number: formatOrderNumber(answer.order.number),
        total: formatMoney(answer.order.total, answer.order.currency),
        processing: answer.processing,
        paymentUrl: answer.paymentUrl,
        leftPayment,
        refreshUrl: `/return?order=${answer.order.id}`,
      };
  }
}

export default function Return({ loaderData }: Route.ComponentProps) {
  const { number, total, processing, paymentUrl, leftPayment, refreshUrl } = loaderData;
  const navigate = useNavigate();
  // Nothing to confirm while the buyer decides whether to cancel: the page stays as it is.
  const waiting = !processing && !leftPayment;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => navigate(refreshUrl, { replace: true, preventScrollReset: true }), 2000);
    return () => clearInterval(timer);
  }, [navigate, waiting, refreshUrl]);
  if (leftPayment) {
    return (
      <main id="main" className="dark-band relative isolate -mb-24 bg-asphalt-950 px-4 pt-16 pb-40 text-white sm:pt-24">
        <TrackArt className="absolute inset-0 -z-10 size-full opacity-40" />
        <div className="mx-auto max-w-lg text-center">
          <h1 className="wide mt-6 text-3xl font-extrabold sm:text-4xl">You left the payment page</h1>
          <p className="tabular mt-4 text-asphalt-300">
            Order {number} · {total}
          </p>
          <p className="mt-4 text-asphalt-100">
            Nothing has been charged. Cancel the order to free its places now, or go back and pay.
          </p>
          <Form method="post" className="mt-8 flex flex-wrap items-center justify-center gap-x-6 gap-y-3">
            <SubmitButton name="intent" value="cancel" pendingLabel="Cancelling…">
              Cancel this order
            </SubmitButton>
            {paymentUrl ? (
              <a href={paymentUrl} className="font-semibold text-accent-strong underline">
                Back to payment
              </a>
            ) : null}
          </Form>
        </div>
      </main>
    );
  }
  return (
    <main id="main" className="dark-band relative isolate -mb-24 bg-asphalt-950 px-4 pt-16 pb-40 text-white sm:pt-24">
      {waiting ? (
        <noscript>
          <meta httpEquiv="refresh" content={`2; url=${refreshUrl}`} />
        </noscript>
      ) : null}
      <TrackArt className="absolute inset-0 -z-10 size-full opacity-40" />
      <div className="mx-auto max-w-lg text-center" role="status" aria-live="polite">
        {processing ? null : (
          <LoaderCircle
            aria-hidden
            className="mx-auto size-14 animate-spin text-accent-strong motion-reduce:animate-none"
          />
        )}
        <h1 className="wide mt-6 text-3xl font-extrabold sm:text-4xl">
          {processing ? "Your bank is processing the payment" : "Confirming your payment…"}
        </h1>
        <p className="tabular mt-4 text-asphalt-300">
          Order {number} · {total}
        </p>
        <p className="mt-4 text-asphalt-100">
          {processing
            ? "We will email you as soon as the payment is confirmed. You can close this page."
            : "This usually takes a few seconds. Please keep this page open; it moves on by itself."}
        </p>
        <p className="mt-8 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm">
          <Link to={refreshUrl} reloadDocument className="font-semibold text-accent-strong underline">
            Check again
          </Link>
          {paymentUrl ? (
            <a href={paymentUrl} className="font-semibold text-accent-strong underline">
              Back to the payment page
            </a>
          ) : null}
        </p>
      </div>
    </main>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Confirming your payment" },
  { name: "robots", content: "noindex" },
];
