import { randomBytes } from "node:crypto";
import { Ticket } from "lucide-react";
import { data, Link } from "react-router";
import { CartCode, CODE_FIELD, UnlockedTickets } from "~/features/cart/cart-code";
import { enterCode } from "~/features/cart/cart-code.server";
import { heldOrder } from "~/features/cart/cart-page.server";
import { CartPayBar, CartPayment, CartSections, type CartViewer } from "~/features/cart/cart-parts";
import { PaymentProblemNotice } from "~/features/cart/payment-problem-notice";
import { lastPaymentProblem } from "~/features/checkout/payment-problem.server";
import { formatOrderNumber } from "~/features/commerce/order-number";
import { spendableCredit } from "~/features/credit/credit.server";
import { formatEventInstant } from "~/features/dates/event-dates";
import { loadCart } from "~/features/selling/selling.server";
import { CartShipping } from "~/features/shipping/cart-shipping";
import { cartShippingOptions } from "~/features/shipping/shipping.server";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { Card } from "~/ui/card";
import { Notice } from "~/ui/form";
import { pageTitle } from "~/ui/page-title";
import { cartOwner } from "~/web/cart-step.server";
import { newVisitorCookie } from "~/web/visitor-cookie.server";
import type { Route } from "./+types/cart";
import { cartAction } from "./cart-action.server";

const PRIVATE = { "Cache-Control": "private, no-store" };

export async function loader({ context, request }: Route.LoaderArgs) {
  const { db, env } = context.get(runtimeContext);
  const user = context.get(userContext);
  const owner = cartOwner(context, request);
  const now = new Date();
  // A `?voucher=CODE` link puts its code in the cart, then shows the cart without it.
  const linked = new URL(request.url).searchParams.get("voucher");
  if (linked !== null) throw await codeFromLink(context, request, linked, now);
  const [cart, held, problem, credit] = await Promise.all([
    loadCart(db, { owner, userId: user?.id, now, currency: env.CURRENCY, timeZone: env.TIME_ZONE }),
    user ? heldOrder(db, user.id, now) : null,
    user ? lastPaymentProblem(db, user.id) : null,
    user?.emailVerified ? spendableCredit(db, { userId: user.id, now }) : 0,
  ]);
  // How merch reaches the buyer: asked only when there is merch, and only of members who can pay.
  const shipping =
    cart.deliveredSubtotal !== null
      ? await cartShippingOptions(db, {
          userId: user?.id ?? null,
          merchSubtotal: cart.deliveredSubtotal,
          eventIds: cart.eventIds,
          now,
          timeZone: env.TIME_ZONE,
          mapsKey: env.GOOGLE_MAPS_API_KEY,
        })
      : null;
  const viewer: CartViewer = !user ? "visitor" : user.emailVerified ? "member" : "unverified";
  return data(
    {
      ...cart,
      currency: env.CURRENCY,
      viewer,
      shipping,
      // Checkout spends it before the card: the summary shows what is left to pay.
      credit,
      // A fresh key per drawing of the page: pressing Pay twice on it makes one order.
      idempotencyKey: randomBytes(18).toString("base64url"),
      paymentProblem: problem
        ? {
            kind: problem.kind,
            reason: problem.reason,
            orderNumber: formatOrderNumber(problem.orderNumber),
            when: formatEventInstant(problem.at, env.TIME_ZONE),
          }
        : null,
      held: held
        ? {
            expiresAt: held.expiresAt.toISOString(),
            secondsLeft: Math.round((held.expiresAt.getTime() - now.getTime()) / 1000),
            orderId: held.id,
          }
        : null,
    },
    { headers: PRIVATE },
  );
}

async function codeFromLink(context: Route.LoaderArgs["context"], request: Request, typed: string, now: Date) {
  const { db, env } = context.get(runtimeContext);
  const existing = cartOwner(context, request);
  // A first-time visitor gets their cart's cookie with the code in it.
  const cookie = existing ? null : newVisitorCookie(env.SITE_URL);
  const owner = existing ?? { visitorToken: cookie!.token };
  const entered = await enterCode(db, { owner, typed, ip: context.get(requestContext).ip, now });
  if (!entered.ok) return redirectWithFlash("/cart", { kind: "error", message: entered.message });
  return redirectWithFlash(
    "/cart",
    { kind: "success", message: `Code ${entered.code} added to your cart.` },
    cookie ? { headers: { "Set-Cookie": cookie.header } } : undefined,
  );
}

export function action({ request, context }: Route.ActionArgs) {
  return cartAction({ request, context });
}

export const headers: Route.HeadersFunction = () => PRIVATE;

export const meta: Route.MetaFunction = ({ matches }) => {
  return [{ title: pageTitle(matches, "Your cart") }, { name: "robots", content: "noindex" }];
};

export default function Cart({ loaderData, actionData }: Route.ComponentProps) {
  const { sections, currency, shipping } = loaderData;
  const empty = sections.length === 0;
  const problems = actionData?.problems ?? [];
  const messages = new Map(
    problems.flatMap((problem) => (problem.ticketTypeId ? [[problem.ticketTypeId, problem.message]] : [])),
  );
  // A message about no line on the page is shown above them all, and one about the code by its field.
  const refs = new Set([CODE_FIELD, ...sections.flatMap((section) => section.lines.map((line) => line.ref))]);
  const general = problems.filter((problem) => !problem.ticketTypeId || !refs.has(problem.ticketTypeId));
  const codeProblem = messages.get(CODE_FIELD) ?? null;
  const discount = loaderData.voucher?.problem ? 0 : (loaderData.voucher?.discount ?? 0);
  const code = <CartCode voucher={loaderData.voucher} currency={currency} problem={codeProblem} />;
  const unlocked = <UnlockedTickets tickets={loaderData.unlocked} currency={currency} />;
  const summaryShipping = shipping
    ? { deliveryFee: shipping.deliveryFee, canCollect: shipping.collectionEvents.length > 0 }
    : null;
  return (
    <main id="main" className="group/cart mx-auto max-w-[1200px] space-y-8 px-4 py-10 sm:px-6 md:py-14">
      <h1 className="wide text-3xl font-black sm:text-4xl">Your cart</h1>
      {loaderData.paymentProblem ? <PaymentProblemNotice problem={loaderData.paymentProblem} /> : null}
      {general.length > 0 ? (
        <Notice kind="error">
          {general.map((problem) => (
            <p key={problem.message}>{problem.message}</p>
          ))}
        </Notice>
      ) : null}
      {empty ? (
        <Card variant="empty" className="grid justify-items-center gap-4 bg-surface-raised px-6 py-16">
          <Ticket aria-hidden className="size-10 text-accent-ink" />
          <p className="text-xl font-bold">
            Your cart is empty —{" "}
            <Link to="/events" className="text-link underline underline-offset-4">
              find an event
            </Link>{" "}
            or{" "}
            <Link to="/shop" className="text-link underline underline-offset-4">
              browse the shop
            </Link>
          </p>
        </Card>
      ) : null}
      {empty ? (
        <div className="max-w-xl space-y-8">
          {unlocked}
          {code}
        </div>
      ) : (
        <div className="grid gap-10 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
          <div className="min-w-0 space-y-10">
            <CartSections sections={sections} currency={currency} messages={messages} />
            {unlocked}
            {code}
            {shipping && loaderData.viewer === "member" ? (
              <CartShipping options={shipping} currency={currency} sent={actionData?.shipping ?? null} />
            ) : null}
          </div>
          <CartPayment
            subtotal={loaderData.subtotal}
            discount={discount}
            code={loaderData.voucher?.code ?? null}
            memberSaving={loaderData.memberSaving}
            currency={currency}
            viewer={loaderData.viewer}
            payable={loaderData.payable}
            idempotencyKey={loaderData.idempotencyKey}
            held={loaderData.held}
            shipping={summaryShipping}
            credit={loaderData.credit}
          />
        </div>
      )}
      {!empty ? (
        <CartPayBar
          subtotal={loaderData.subtotal - discount}
          currency={currency}
          viewer={loaderData.viewer}
          payable={loaderData.payable}
          shipping={summaryShipping}
          credit={loaderData.credit}
          className="-mx-4 -mb-10 sm:-mx-6"
        />
      ) : null}
    </main>
  );
}
