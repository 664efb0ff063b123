import { data, type RouterContextProvider, redirect } from "react-router";
import { removeFeeFromCart } from "~/features/applications/fees.server";
import { findCart, removeCartItem, setCartItem } from "~/features/cart/cart.server";
import { CODE_FIELD } from "~/features/cart/cart-code";
import { enterCode, removeCode } from "~/features/cart/cart-code.server";
import { type CartAction, CartActionSchema, cartFormValues, firstIssue } from "~/features/cart/cart-forms.server";
import { cartHasLine } from "~/features/cart/cart-page.server";
import { followUpPayments } from "~/features/checkout/payment-jobs.server";
import { startOrderPayment } from "~/features/checkout/start-payment.server";
import { removeEntryLine, setEntryLineQuantity } from "~/features/draws/cart-entries.server";
import { removeMembershipLine } from "~/features/membership/cart-membership.server";
import { currentMembership } from "~/features/membership/memberships.server";
import { startCheckout } from "~/features/selling/selling.server";
import {
  type AddressErrors,
  type AddressValues,
  addressValuesOf,
  checkDeliveryAddress,
} from "~/features/shipping/address";
import type { ShippingChoice } from "~/features/shipping/rates";
import { readShippingSettings } from "~/features/shipping/shipping.server";
import { removeMerchLine, setMerchLineQuantity } from "~/features/shop/cart-merch.server";
import { requestContext, runtimeContext, userContext } from "~/server/context.server";
import { redirectWithFlash } from "~/server/flash.server";
import { cartOwner } from "~/web/cart-step.server";

/**
 * What the cart page shows after a refused change: by the line it names (a ticket type's id, or
 * a draw's for entries), or above the cart.
 */
export type CartProblem = { ticketTypeId: string | null; message: string };

/** The Pay form's shipping part as it was sent, shown again with a message per field. */
export type ShippingForm = {
  method: "delivery" | "collection" | null;
  collectionEventId: string | null;
  address: AddressValues;
  errors: AddressErrors;
};

/** The cart again after a change, saying what happened. */
const removed = () => redirectWithFlash("/cart", { kind: "success", message: "Removed from your cart." });
const updated = () => redirectWithFlash("/cart", { kind: "success", message: "Your cart has been updated." });

function refused(problems: CartProblem[], shipping: ShippingForm | null = null) {
  return data({ problems, shipping }, { status: 400 });
}

/**
 * The cart's forms: change a line's quantity (and attendee names), remove it, or pay. Quantities
 * are checked against the per-order maximum and what is left on every change.
 */
export async function cartAction({ request, context }: { request: Request; context: Readonly<RouterContextProvider> }) {
  const { db } = context.get(runtimeContext);
  const formData = await request.formData();
  const values = cartFormValues(formData);
  const parsed = CartActionSchema.safeParse(values);
  if (!parsed.success) return refused([firstIssue(parsed.error, values)]);
  const form = parsed.data;
  if (form.intent === "pay") return pay(context, form, addressValuesOf(formData));
  if (form.intent === "resume") return toPayment(context, form.orderId);

  const owner = cartOwner(context, request);
  const cartId = owner ? await findCart(db, owner) : null;
  const memberId = owner && "userId" in owner ? owner.userId : undefined;
  const now = new Date();
  if (form.intent === "apply-code") {
    if (!owner)
      return refused([{ ticketTypeId: CODE_FIELD, message: "Add something to your cart before entering a code" }]);
    const entered = await enterCode(db, { owner, typed: form.code, ip: context.get(requestContext).ip, now });
    if (!entered.ok) return refused([{ ticketTypeId: CODE_FIELD, message: entered.message }]);
    return redirectWithFlash("/cart", { kind: "success", message: `Code ${entered.code} added to your cart.` });
  }
  if (form.intent === "remove-code") {
    if (cartId) await removeCode(db, { cartId, now });
    return redirectWithFlash("/cart", { kind: "success", message: "The code was removed from your cart." });
  }
  if (form.intent === "add-unlocked") {
    if (!cartId) return refused([{ ticketTypeId: null, message: "Enter the code again to add these tickets" }]);
    const change = await setCartItem(db, {
      cartId,
      ticketTypeId: form.ticketTypeId,
      quantity: 1,
      now,
      userId: memberId,
      member: memberId ? (await currentMembership(db, memberId, now)) !== null : false,
    });
    if (!change.ok) return refused([{ ticketTypeId: null, message: change.problem.message }]);
    return redirectWithFlash("/cart", { kind: "success", message: "Added to your cart." });
  }
  if (form.intent === "remove-application") {
    if (cartId) await removeFeeFromCart(db, { cartId, applicationId: form.applicationId, now });
    return removed();
  }
  if (form.intent === "update-entries" || form.intent === "remove-entries") {
    const user = context.get(userContext);
    if (!user || !cartId) return refused([{ ticketTypeId: null, message: "Those entries are no longer in your cart" }]);
    const line = { cartId, drawId: form.drawId, entriesPerUnit: form.bundle, now };
    if (form.intent === "remove-entries") {
      await removeEntryLine(db, line);
      return removed();
    }
    const change = await setEntryLineQuantity(db, { ...line, userId: user.id, quantity: form.quantity });
    if (!change.ok) return refused([{ ticketTypeId: form.drawId, message: change.problem.message }]);
    return updated();
  }
  if (form.intent === "remove-membership") {
    if (cartId) await removeMembershipLine(db, { cartId, tierId: form.tierId, now });
    return removed();
  }
  if (form.intent === "update-merch" || form.intent === "remove-merch") {
    if (!cartId) return refused([{ ticketTypeId: null, message: "That item is no longer in your cart" }]);
    if (form.intent === "remove-merch") {
      await removeMerchLine(db, { cartId, variantId: form.variantId, now });
      return removed();
    }
    const change = await setMerchLineQuantity(db, {
      cartId,
      variantId: form.variantId,
      quantity: form.quantity,
      now,
      userId: memberId,
    });
    if (!change.ok) {
      const lineId = change.problem.code === "not_found" ? null : form.variantId;
      return refused([{ ticketTypeId: lineId, message: change.problem.message }]);
    }
    return updated();
  }
  if (!cartId || !(await cartHasLine(db, cartId, form.ticketTypeId))) {
    return refused([{ ticketTypeId: null, message: "Those tickets are no longer in your cart" }]);
  }
  if (form.intent === "remove") {
    await removeCartItem(db, { cartId, ticketTypeId: form.ticketTypeId, now });
    return removed();
  }
  const change = await setCartItem(db, {
    cartId,
    ticketTypeId: form.ticketTypeId,
    quantity: form.quantity,
    attendeeNames: form.attendeeNames,
    now,
    userId: memberId,
    member: memberId ? (await currentMembership(db, memberId, now)) !== null : false,
  });
  if (!change.ok) return refused([{ ticketTypeId: form.ticketTypeId, message: change.problem.message }]);
  return updated();
}

/**
 * Pay: only a signed-in member with a confirmed email address. Checkout holds the places and
 * makes the order; the same form sent twice (its key is made when the page is drawn) answers
 * the same order.
 */
async function pay(
  context: Readonly<RouterContextProvider>,
  form: Extract<CartAction, { intent: "pay" }>,
  address: AddressValues,
) {
  const { db, env, payments } = context.get(runtimeContext);
  const user = context.get(userContext);
  if (!user) throw redirect("/login?redirectTo=/cart");
  if (!user.emailVerified) {
    return refused([
      { ticketTypeId: null, message: "Confirm your email address before paying: use the link we sent you." },
    ]);
  }
  const cartId = await findCart(db, { userId: user.id });
  if (!cartId) return refused([{ ticketTypeId: null, message: "Your cart is empty" }]);
  const sent: ShippingForm = {
    method: form.shippingMethod ?? null,
    collectionEventId: form.collectionEventId ?? null,
    address,
    errors: {},
  };
  // The address is checked here for its field messages; checkout checks it again with the fee.
  let shipping: ShippingChoice | undefined;
  if (form.shippingMethod === "delivery") {
    const checked = checkDeliveryAddress(address, (await readShippingSettings(db)).countries);
    if (!checked.ok) {
      return refused([{ ticketTypeId: null, message: "Check the delivery address" }], {
        ...sent,
        errors: checked.errors,
      });
    }
    shipping = { method: "delivery", address: checked.address };
  } else if (form.shippingMethod === "collection") {
    if (!form.collectionEventId) {
      return refused([{ ticketTypeId: null, message: "Choose the event to collect at" }], sent);
    }
    shipping = { method: "collection", eventId: form.collectionEventId };
  }
  const result = await startCheckout(db, {
    userId: user.id,
    email: user.email,
    cartId,
    now: new Date(),
    currency: env.CURRENCY,
    // The configured provider: Stripe when STRIPE_SECRET_KEY is set, otherwise the test checkout.
    provider: payments.provider,
    holdMinutes: env.HOLD_MINUTES,
    timeZone: env.TIME_ZONE,
    idempotencyKey: `${user.id}:${form.idempotencyKey}`,
    shipping,
  });
  if (!result.ok) {
    return refused(
      result.problems.map((problem) => ({
        ticketTypeId: problem.line ?? null,
        message: problem.message,
      })),
      sent,
    );
  }
  return toPayment(context, result.order.id);
}

/**
 * On to the payment provider for the member's order (a new one, or a held one being resumed);
 * an order that is no longer pending goes to /return, which says how it ended.
 */
async function toPayment(context: Readonly<RouterContextProvider>, orderId: string) {
  const runtime = context.get(runtimeContext);
  const user = context.get(userContext);
  if (!user) throw redirect("/login?redirectTo=/cart");
  const started = await startOrderPayment(runtime.db, runtime.payments, {
    orderId,
    userId: user.id,
    siteUrl: runtime.env.SITE_URL,
    now: new Date(),
  });
  if (started.kind === "not_found") {
    return refused([{ ticketTypeId: null, message: "That order could not be found: press Pay to start again." }]);
  }
  await followUpPayments(runtime, started.followUps);
  throw redirect(started.url);
}
