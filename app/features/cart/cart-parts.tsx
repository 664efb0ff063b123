import { AlertTriangle, Lock, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import type { CartLineView } from "~/features/commerce/item-kind";
import { creditToSpend } from "~/features/credit/credit-rules";
import { ByShippingMethod, PAY_FORM_ID } from "~/features/shipping/cart-shipping";
import { Card } from "~/ui/card";
import { MobileActionBar } from "~/ui/mobile-action-bar";
import { formatMoney } from "~/ui/money";
import type { CartPageSection } from "./cart-page.server";
import { HoldCountdown } from "./hold-countdown";

/**
 * The /cart page's parts: a section per kind of item, every line drawn by one `CartLine`, and
 * the payment summary. Every change is a plain POST form, one per line, so the cart works
 * without JavaScript.
 */

type LineMessages = Map<string, string>;

const control =
  "h-11 rounded-lg border border-line bg-surface px-3 font-semibold focus-visible:outline-2 focus-visible:outline-accent";
const secondaryButton =
  "inline-flex h-11 items-center gap-2 rounded-full border border-line px-4 text-sm font-bold hover:bg-surface-sunken focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent";

/** A line's quantity: a menu up to 30, a number field above (the most the line may hold). */
function QuantitySelect({
  id,
  line,
  describedBy,
}: {
  id: string;
  line: { quantity: number; maxQuantity: number };
  describedBy?: string;
}) {
  const options = Array.from({ length: line.maxQuantity }, (_, index) => index + 1);
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-semibold text-muted">
        Quantity
      </label>
      {line.maxQuantity <= 30 ? (
        <select
          id={id}
          name="quantity"
          defaultValue={line.quantity}
          aria-describedby={describedBy}
          className={`tabular ${control}`}
        >
          {options.map((count) => (
            <option key={count} value={count}>
              {count}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          name="quantity"
          type="number"
          inputMode="numeric"
          min={1}
          max={line.maxQuantity}
          required
          defaultValue={line.quantity}
          aria-describedby={describedBy}
          className={`tabular w-20 ${control}`}
        />
      )}
    </div>
  );
}

/** A line's heading: what it belongs to (linked), its name and a detail, and its price. */
function LineHeader({
  href,
  of,
  name,
  detail,
  unitPrice,
  quantity,
  price,
}: {
  href: string;
  of: string;
  name: string;
  detail: string | null;
  unitPrice: number;
  quantity: number;
  price: (minor: number) => string;
}) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-1">
      <div className="min-w-0">
        <p className="text-sm font-semibold text-accent-ink">
          <Link to={href} className="hover:underline">
            {of}
          </Link>
        </p>
        <h3 className="text-lg font-bold">{name}</h3>
        {detail ? <p className="text-sm text-muted">{detail}</p> : null}
      </div>
      <p className="tabular text-right">
        <span className="wide block text-xl font-black">{price(unitPrice * quantity)}</span>
        <span className="text-sm text-muted">
          {quantity} × {price(unitPrice)}
        </span>
      </p>
    </div>
  );
}

function RemoveButton({ intent, label }: { intent: string; label: string }) {
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      aria-label={label}
      className={`${secondaryButton} text-red-700 dark:text-red-400`}
    >
      <Trash2 aria-hidden className="size-4" />
      Remove
    </button>
  );
}

function LineProblem({ id, message, closed }: { id: string; message: string; closed: boolean }) {
  return (
    <p
      id={id}
      role={closed ? undefined : "alert"}
      className="flex items-start gap-2 text-sm font-semibold text-red-700 dark:text-red-400"
    >
      <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
      {message}
    </p>
  );
}

/** One line of the cart, whatever kind of item it holds; `message` is the last change's about it. */
function CartLine({ line, message, currency }: { line: CartLineView; message?: string; currency: string }) {
  const price = (minor: number) => formatMoney(minor, currency);
  const { update } = line;
  // The message from the last change if there is one, else the line's own problem.
  const problem = message ?? line.problem;
  return (
    <li className="space-y-4 p-5 sm:p-6" aria-label={line.label}>
      <LineHeader {...line.header} unitPrice={line.unitPrice} quantity={line.quantity} price={price} />
      {line.memberSaving ? (
        <p className="text-sm font-semibold text-emerald-800 dark:text-emerald-300">
          Member price: you save {price(line.memberSaving)}
        </p>
      ) : line.memberPrice !== undefined ? (
        <p className="text-sm text-muted">
          Members pay {price(line.memberPrice)} each.{" "}
          <Link to="/membership" className="font-semibold text-link underline">
            Join the club
          </Link>
        </p>
      ) : null}
      {problem ? <LineProblem id={line.problemId} message={problem} closed={!message && line.closed} /> : null}
      <Form method="post" className="space-y-4">
        {Object.entries(line.target).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {line.attendeeNames ? <AttendeeNames names={line.attendeeNames} /> : null}
        <div className="flex flex-wrap items-center gap-3">
          {update ? (
            <>
              <QuantitySelect
                id={update.id}
                line={{ quantity: line.quantity, maxQuantity: update.maxQuantity }}
                describedBy={problem ? line.problemId : undefined}
              />
              <button type="submit" name="intent" value={update.intent} className={secondaryButton}>
                {update.label}
              </button>
            </>
          ) : null}
          <RemoveButton intent={line.remove.intent} label={line.remove.label} />
        </div>
      </Form>
    </li>
  );
}

/** The names of the people a multi-day pass line is for, sent with its Save. */
function AttendeeNames({ names }: { names: string[] }) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-semibold">Who is each pass for?</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {names.map((name, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a pass's seat is its place in the list.
          <label key={index} className="grid gap-1 text-sm">
            <span className="text-muted">Attendee {index + 1} name</span>
            <input
              name="attendeeName"
              defaultValue={name}
              maxLength={80}
              autoComplete={index === 0 ? "name" : "off"}
              className={`${control} font-normal`}
            />
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A kind's section of the cart: its heading, what to know about it, and its lines. */
function CartSectionView({
  section,
  messages,
  currency,
}: {
  section: CartPageSection;
  messages: LineMessages;
  currency: string;
}) {
  const headingId = section.id;
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h2 id={headingId} className="wide text-xl font-extrabold">
        {section.title}
      </h2>
      {section.intro ? <p className="text-muted">{section.intro}</p> : null}
      <Card as="ul" variant="list" className="overflow-hidden">
        {section.lines.map((line) => (
          <CartLine
            key={Object.values(line.target).join("-")}
            line={line}
            message={messages.get(line.ref)}
            currency={currency}
          />
        ))}
      </Card>
    </section>
  );
}

/** Every section of the cart with lines, in the page's order. */
export function CartSections({
  sections,
  messages,
  currency,
}: {
  sections: CartPageSection[];
  messages: LineMessages;
  currency: string;
}) {
  return sections.map((section) => (
    <CartSectionView key={section.id} section={section} messages={messages} currency={currency} />
  ));
}

export type CartViewer = "visitor" | "unverified" | "member";

/** The shipping line of the order summary, when the cart holds merch. */
export type SummaryShipping = { deliveryFee: number; canCollect: boolean };

/**
 * An amount that depends on the total: with delivery, or, while collection is chosen, without it.
 * `of` turns the total into the amount shown.
 */
function ByTotal({
  subtotal,
  shipping,
  currency,
  of,
}: {
  subtotal: number;
  shipping: SummaryShipping | null;
  currency: string;
  of: (total: number) => number;
}) {
  if (!shipping || shipping.deliveryFee === 0 || !shipping.canCollect) {
    return <>{formatMoney(of(subtotal + (shipping?.deliveryFee ?? 0)), currency)}</>;
  }
  return (
    <ByShippingMethod
      delivery={formatMoney(of(subtotal + shipping.deliveryFee), currency)}
      collection={formatMoney(of(subtotal), currency)}
    />
  );
}

/** What is left to pay once the member's account credit has paid what it can (checkout's rule). */
function Total({
  subtotal,
  shipping,
  currency,
  credit = 0,
}: {
  subtotal: number;
  shipping: SummaryShipping | null;
  currency: string;
  credit?: number;
}) {
  return (
    <ByTotal
      subtotal={subtotal}
      shipping={shipping}
      currency={currency}
      of={(total) => total - creditToSpend(total, credit)}
    />
  );
}

/**
 * On phones the order summary is below every line of the cart: a bar along the bottom of the
 * screen keeps the total and the way to pay in reach. Its Pay button submits the
 * summary's own form, so it works without JavaScript and is the same single order.
 */
export function CartPayBar({
  subtotal,
  currency,
  viewer,
  payable,
  shipping = null,
  credit = 0,
  className,
}: {
  subtotal: number;
  currency: string;
  viewer: CartViewer;
  payable: boolean;
  shipping?: SummaryShipping | null;
  /** The member's account credit, which pays first. */
  credit?: number;
  className?: string;
}) {
  if (viewer === "unverified") return null;
  const price = <Total subtotal={subtotal} shipping={shipping} currency={currency} credit={credit} />;
  return (
    <MobileActionBar className={className}>
      <p className="min-w-0">
        <span className="block text-xs uppercase tracking-wider text-asphalt-300">
          {credit > 0 ? "To pay" : "Total"}
        </span>
        <span className="wide tabular text-lg font-black">{price}</span>
      </p>
      {viewer === "visitor" ? (
        <SignInToPay className="h-11 px-5" />
      ) : (
        <PayButton price={price} payable={payable} form={PAY_FORM_ID} className="h-11 px-5" />
      )}
    </MobileActionBar>
  );
}

const accentButton =
  "flex items-center justify-center rounded-full bg-accent font-bold text-on-accent hover:bg-accent-strong";

/** A visitor's way to pay: sign in first, then back to this cart. */
function SignInToPay({ className }: { className: string }) {
  return (
    <Link to="/login?redirectTo=/cart" className={`${accentButton} ${className}`}>
      Sign in to pay
    </Link>
  );
}

/** The Pay button with the total; `form` sends the Pay form from outside it (the phone's bar). */
function PayButton({
  price,
  payable,
  form,
  className,
}: {
  price: ReactNode;
  payable: boolean;
  form?: string;
  className: string;
}) {
  return (
    <button
      type="submit"
      form={form}
      name="intent"
      value="pay"
      disabled={!payable}
      className={`${accentButton} gap-2 disabled:cursor-not-allowed disabled:opacity-60 ${className}`}
    >
      <Lock aria-hidden className="size-4" />
      Pay {price}
    </button>
  );
}

/** Subtotal, total and the way to pay, which depends on who is looking. */
export function CartPayment({
  subtotal,
  discount = 0,
  code = null,
  memberSaving = 0,
  currency,
  viewer,
  payable,
  idempotencyKey,
  held,
  shipping = null,
  credit = 0,
}: {
  subtotal: number;
  /** What the cart's code takes off, and the code. */
  discount?: number;
  code?: string | null;
  /** What membership saves on this cart, shown under the subtotal. */
  memberSaving?: number;
  currency: string;
  viewer: CartViewer;
  payable: boolean;
  idempotencyKey: string;
  held: { expiresAt: string; secondsLeft: number; orderId: string } | null;
  shipping?: SummaryShipping | null;
  /** The member's account credit, which checkout spends before the card. */
  credit?: number;
}) {
  const total = subtotal - discount;
  const price = <Total subtotal={total} shipping={shipping} currency={currency} credit={credit} />;
  const fee = shipping ? (shipping.deliveryFee === 0 ? "Free" : formatMoney(shipping.deliveryFee, currency)) : null;
  return (
    <section
      aria-labelledby="cart-payment"
      className="dark-band space-y-5 rounded-2xl bg-asphalt-950 p-6 text-white ring-1 ring-white/10 lg:sticky lg:top-24"
    >
      <h2 id="cart-payment" className="wide text-xl font-extrabold">
        Order summary
      </h2>
      <dl className="space-y-2">
        <div className="flex justify-between gap-4">
          <dt>Subtotal</dt>
          <dd className="tabular">{formatMoney(subtotal, currency)}</dd>
        </div>
        {memberSaving > 0 ? (
          <div className="flex justify-between gap-4 text-emerald-300">
            <dt>Membership saved you</dt>
            <dd className="tabular">{formatMoney(memberSaving, currency)}</dd>
          </div>
        ) : null}
        {code && discount > 0 ? (
          <div className="flex justify-between gap-4 text-emerald-300">
            <dt>
              Code <span className="font-mono">{code}</span>
            </dt>
            <dd className="tabular">−{formatMoney(discount, currency)}</dd>
          </div>
        ) : null}
        {shipping && fee ? (
          <div className="flex justify-between gap-4">
            <dt>
              {shipping.canCollect ? <ByShippingMethod delivery="Delivery" collection="Collection" /> : "Delivery"}
            </dt>
            <dd className="tabular">
              {shipping.canCollect ? <ByShippingMethod delivery={fee} collection="Free" /> : fee}
            </dd>
          </div>
        ) : null}
        {credit > 0 ? (
          <>
            <div className="flex justify-between gap-4 border-t border-white/15 pt-3">
              <dt>Total</dt>
              <dd className="tabular">
                <Total subtotal={total} shipping={shipping} currency={currency} />
              </dd>
            </div>
            <div className="flex justify-between gap-4 text-emerald-300">
              <dt>Account credit</dt>
              <dd className="tabular">
                −
                <ByTotal
                  subtotal={total}
                  shipping={shipping}
                  currency={currency}
                  of={(amount) => creditToSpend(amount, credit)}
                />
              </dd>
            </div>
          </>
        ) : null}
        <div className="flex justify-between gap-4 border-t border-white/15 pt-3 text-lg font-bold">
          <dt>{credit > 0 ? "To pay" : "Total"}</dt>
          <dd className="wide tabular text-2xl font-black">{price}</dd>
        </div>
      </dl>
      {credit > 0 ? (
        <p className="text-sm text-asphalt-300">
          You have {formatMoney(credit, currency)} of account credit: it pays first, and anything left is paid by card.
        </p>
      ) : null}
      {held ? (
        <div className="space-y-2 rounded-xl bg-white/10 p-4">
          <p>
            <HoldCountdown expiresAt={held.expiresAt} secondsLeft={held.secondsLeft} />
          </p>
          {/* A form, not a link: with Stripe the way back to an open payment is looked up first. */}
          <Form method="post">
            <input type="hidden" name="orderId" value={held.orderId} />
            <button
              type="submit"
              name="intent"
              value="resume"
              className="font-bold text-accent-strong underline underline-offset-2"
            >
              Continue to payment
            </button>
          </Form>
        </div>
      ) : null}
      {viewer === "visitor" ? (
        <SignInToPay className="h-12" />
      ) : viewer === "unverified" ? (
        <p className="rounded-xl bg-white/10 p-4">
          Confirm your email address before paying: open the link we sent you, then come back to your cart.
        </p>
      ) : (
        <Form method="post" id={PAY_FORM_ID} className="space-y-3">
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          {payable ? null : <p className="text-sm">Sort out the items marked in your cart before paying.</p>}
          <PayButton price={price} payable={payable} className="h-12 w-full" />
        </Form>
      )}
      <p className="text-sm opacity-80">
        {shipping
          ? "Starting payment holds your tickets and merch for a few minutes while you pay."
          : "Starting payment holds your tickets for a few minutes while you pay."}
      </p>
    </section>
  );
}
