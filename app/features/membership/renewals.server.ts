import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNotNull, isNull, like, lte, type SQL, sql } from "drizzle-orm";
import { accountEmail, type Branding } from "~/features/accounts/emails.server";
import type { Db } from "~/server/db/client.server";
import type { Env } from "~/server/env.server";
import { defineJob } from "~/server/jobs/queue.server";
import { getLog } from "~/server/log.server";
import type { OutboundEmail } from "~/server/mail/mail.server";
import type { Outbox } from "~/server/messages.server";
import {
  type BillingEvent,
  type MembershipBilling,
  type PaymentGateway,
  PermanentPaymentError,
} from "~/server/payments/payments.server";
import { formatMoney } from "~/ui/money";
import { memberships, membershipTiers, orderItems, orders, users } from "../../../db/schema";
import { membershipDate } from "./membership-labels";
import { GRACE_DAYS, REMINDER_DAYS, retryAt } from "./membership-rules";

/**
 * The membership clock (docs/membership.md): run every few minutes, or by the test clock at any
 * moment, it sends each renewal's reminder in its window, charges renewals that are due to the
 * member's saved way to pay, tries a failed charge again on the retry days, and tells the member
 * when a renewal failed and when the membership lapsed. Every step is safe to repeat: what was
 * done is recorded on the membership row, and a renewal is an order settled once.
 */

const DAY = 24 * 60 * 60 * 1000;
/** The test checkout's saved card, charged for renewals with the test payment provider. */
export const TEST_CARD = "test:card";
/** A test card the test clock has made decline. */
export const TEST_DECLINED_CARD = "test:declined";
/** Paid by Stripe, its renewals' subscription not made yet (the clock makes it). */
export const STRIPE_PENDING = "stripe:pending";
/** Renewed by a Stripe Billing subscription: `stripe:sub_…`. */
const STRIPE_SUBSCRIPTION = "stripe:sub_";
/** A subscription charging on a renewal date staff have since moved: `stripe:moved:sub_…`, made again by the clock. */
const STRIPE_MOVED = "stripe:moved:";

/**
 * The way to pay of a membership whose paid-until date staff moved (an import, a change): a
 * Stripe subscription charges on the old date, so it is marked to be stopped and made again for
 * the new one by the clock's next run. Any other way to pay stays as it is.
 */
export function movedPaymentMethod(paymentMethod: SQL) {
  return sql`case when ${paymentMethod} like ${`${STRIPE_SUBSCRIPTION}%`}
    then ${STRIPE_MOVED} || substr(${paymentMethod}, ${"stripe:".length + 1}) else ${paymentMethod} end`;
}
/** A renewal is charged only once its reminder has been out this long, however late it went. */
const NOTICE_BEFORE_CHARGE_DAYS = 3;
/** How long a run's claim on a renewal it is charging lasts. */
const CLAIM_MS = 60 * 60 * 1000;

type RenewalCharge =
  | { ok: true; provider: "test" | "stripe"; paymentReference: string }
  | { ok: false; reason: string };

/** Charges a renewal to the saved way to pay; the composition root supplies the provider's. */
export type ChargeRenewal = (input: {
  paymentMethod: string;
  amount: number;
  orderId: string;
}) => Promise<RenewalCharge>;

/** Settles a renewal's order once its charge succeeded: the commerce core's settlement. */
export type SettleRenewal = (input: {
  orderId: string;
  provider: "test" | "stripe";
  paymentReference: string;
  amount: number;
  now: Date;
}) => Promise<{ kind: string }>;

export type MembershipClockServices = {
  db: Db;
  sendEmail: (email: OutboundEmail) => Promise<void>;
  brand: Branding & { currency: string; secret: string };
  charge: ChargeRenewal;
  settle: SettleRenewal;
  /** The provider's subscriptions (Stripe Billing), when it has them. */
  billing?: MembershipBilling;
};

const renewing = and(isNull(memberships.endedAt), eq(memberships.renews, true), eq(membershipTiers.autoRenews, true));

const rowColumns = {
  id: memberships.id,
  userId: memberships.userId,
  paidUntil: memberships.paidUntil,
  remindedFor: memberships.remindedFor,
  remindedAt: memberships.remindedAt,
  renewalFailures: memberships.renewalFailures,
  retryAt: memberships.retryAt,
  paymentMethod: memberships.paymentMethod,
  email: users.email,
  name: users.name,
  tierId: membershipTiers.id,
  tierName: membershipTiers.name,
  price: membershipTiers.price,
  months: sql<number>`coalesce(${membershipTiers.rollingMonths}, 12)`.mapWith(Number),
  timeZone: membershipTiers.timeZone,
};

function from(db: Db) {
  return db
    .select(rowColumns)
    .from(memberships)
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .innerJoin(users, eq(users.id, memberships.userId));
}

type Due = Awaited<ReturnType<ReturnType<typeof from>["where"]>>[number];

/** The signed part of a one-click "turn renewal off" link: the membership and its renewal date. */
export function renewalToken(membershipId: string, paidUntil: Date, secret: string) {
  const key = createHmac("sha256", secret).update("pitlane membership renewal links v1").digest();
  const mac = createHmac("sha256", key).update(`${membershipId}.${paidUntil.toISOString()}`).digest("base64url");
  return `${membershipId}.${paidUntil.getTime().toString(36)}.${mac.slice(0, 32)}`;
}

/** The membership a renewal link names, when its signature is right; null otherwise. */
function readRenewalToken(token: string, secret: string) {
  const [membershipId, time, mac] = token.split(".");
  if (!membershipId || !time || !mac || !/^[0-9a-f-]{36}$/.test(membershipId)) return null;
  const paidUntil = new Date(Number.parseInt(time, 36));
  if (Number.isNaN(paidUntil.getTime())) return null;
  const expected = renewalToken(membershipId, paidUntil, secret);
  const given = Buffer.from(token);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted) ? { membershipId, paidUntil } : null;
}

function reminderEmail(services: MembershipClockServices, row: Due) {
  const { brand } = services;
  const date = membershipDate(row.paidUntil, row.timeZone);
  const stopUrl = `${brand.siteUrl}/membership/renewal/${renewalToken(row.id, row.paidUntil, brand.secret)}`;
  return accountEmail(brand, row.email, `Your ${row.tierName} membership renews on ${date}`, {
    greeting: `Hi ${row.name},`,
    lines: [
      `Your ${row.tierName} membership renews on ${date} for ${formatMoney(row.price, brand.currency)}, charged to the card you paid with.`,
      "Nothing to do if you want to stay a member. To stop it renewing, use the link below: one click, no sign-in needed. You keep your membership until the date above.",
      "You can also cancel within 14 days after the renewal and get the money back, less the days you have had.",
    ],
    action: { label: "Turn off renewal", url: stopUrl },
    footnote: "You get this before every renewal, because your membership renews by itself.",
  });
}

function failedEmail(services: MembershipClockServices, row: Due, nextTry: Date | null) {
  const { brand } = services;
  const lapses = membershipDate(new Date(row.paidUntil.getTime() + GRACE_DAYS * DAY), row.timeZone);
  const price = formatMoney(row.price, brand.currency);
  if (!row.paymentMethod) {
    return accountEmail(brand, row.email, `Renew your ${row.tierName} membership`, {
      greeting: `Hi ${row.name},`,
      lines: [
        `Your ${row.tierName} membership is due for renewal (${price}), and we have no card saved to charge.`,
        `Renew from the membership page before ${lapses} to keep your membership and card working.`,
      ],
      action: { label: "Renew now", url: `${brand.siteUrl}/membership` },
    });
  }
  return accountEmail(brand, row.email, `We could not renew your ${row.tierName} membership`, {
    greeting: `Hi ${row.name},`,
    lines: [
      `Your card was declined when we tried to renew your ${row.tierName} membership for ${price}.`,
      nextTry
        ? `We will try again on ${membershipDate(nextTry, row.timeZone)}. Your membership and card keep working until ${lapses}.`
        : `We will not try again. Your membership and card keep working until ${lapses}.`,
      "To keep your membership, check your card with your bank, or renew from the membership page with another card.",
    ],
    action: { label: "Renew now", url: `${brand.siteUrl}/membership` },
  });
}

function lapsedEmail(services: MembershipClockServices, row: Due) {
  const { brand } = services;
  return accountEmail(brand, row.email, `Your ${row.tierName} membership has lapsed`, {
    greeting: `Hi ${row.name},`,
    lines: [
      `We could not take the renewal of your ${row.tierName} membership, so it has lapsed and your member card no longer works.`,
      "You are welcome back any time: joining again takes a minute.",
    ],
    action: { label: "Join again", url: `${brand.siteUrl}/membership` },
  });
}

function renewedEmail(services: MembershipClockServices, row: Due) {
  const { brand } = services;
  return accountEmail(brand, row.email, `Your ${row.tierName} membership is renewed`, {
    greeting: `Hi ${row.name},`,
    lines: [
      `Thank you: your ${row.tierName} membership is renewed, and ${formatMoney(row.price, brand.currency)} was charged to your card.`,
      "Changed your mind? Within 14 days you can cancel from your account and get the money back, less the days you have had.",
    ],
    action: { label: "See my membership", url: `${brand.siteUrl}/members/membership` },
  });
}

/** The reminders due at `now`: renewing memberships in their reminder window, not yet reminded. */
async function sendReminders(services: MembershipClockServices, now: Date) {
  const { db } = services;
  const due = await from(db).where(
    and(
      renewing,
      sql`${memberships.remindedFor} is distinct from ${memberships.paidUntil}`,
      lte(memberships.paidUntil, new Date(now.getTime() + REMINDER_DAYS * DAY)),
      sql`${memberships.paidUntil} + make_interval(days => ${GRACE_DAYS}) > ${now.toISOString()}::timestamptz`,
    ),
  );
  for (const row of due) {
    // The price the reminder names is the one the subscription will charge; if Stripe cannot be
    // told now, the reminder waits for the next run rather than name a price not yet set.
    if (!(await priceSubscription(services, row))) continue;
    // Queued first and recorded after: a crash in between sends the reminder again, never none.
    await services.sendEmail(reminderEmail(services, row));
    await db
      .update(memberships)
      .set({ remindedFor: row.paidUntil, remindedAt: now, updatedAt: now })
      .where(and(eq(memberships.id, row.id), eq(memberships.paidUntil, row.paidUntil)));
  }
  return due.length;
}

/**
 * The renewals due at `now`: past their renewal date, reminded at least three days ago (a
 * reminder that went late pushes the charge back, never the notice), within the grace days, and
 * not waiting for a retry.
 */
async function chargeRenewals(services: MembershipClockServices, now: Date) {
  const { db } = services;
  const due = await from(db).where(
    and(
      renewing,
      lte(memberships.paidUntil, now),
      eq(memberships.remindedFor, memberships.paidUntil),
      lte(memberships.remindedAt, new Date(now.getTime() - NOTICE_BEFORE_CHARGE_DAYS * DAY)),
      sql`${memberships.paidUntil} + make_interval(days => ${GRACE_DAYS}) > ${now.toISOString()}::timestamptz`,
      sql`(${memberships.retryAt} is null or ${memberships.retryAt} <= ${now.toISOString()}::timestamptz)`,
      sql`not (${memberships.renewalFailures} > 0 and ${memberships.retryAt} is null)`,
      // Stripe Billing charges its subscriptions itself; the clock hears how it went (billing.server.ts).
      sql`(${memberships.paymentMethod} is null or ${memberships.paymentMethod} not like ${`${STRIPE_SUBSCRIPTION}%`})`,
    ),
  );
  let renewed = 0;
  for (const row of due) {
    // Claimed first, so that two runs at once (the job on two servers, the test clock beside the
    // job) never charge one renewal twice: the claim is a lease, given up by the charge's outcome,
    // or run out an hour later if this process stopped halfway.
    const [claimed] = await db
      .update(memberships)
      .set({ retryAt: new Date(now.getTime() + CLAIM_MS), updatedAt: now })
      .where(
        and(
          eq(memberships.id, row.id),
          eq(memberships.paidUntil, row.paidUntil),
          eq(memberships.renewalFailures, row.renewalFailures),
          sql`(${memberships.retryAt} is null or ${memberships.retryAt} <= ${now.toISOString()}::timestamptz)`,
        ),
      )
      .returning({ id: memberships.id });
    if (!claimed) continue;
    const order = await renewalOrder(db, row, services.brand.currency, now);
    const charge: RenewalCharge = row.paymentMethod
      ? await services.charge({ paymentMethod: row.paymentMethod, amount: row.price, orderId: order })
      : { ok: false, reason: "No card is saved for renewals" };
    if (charge.ok) {
      const settled = await services.settle({
        orderId: order,
        provider: charge.provider,
        paymentReference: charge.paymentReference,
        amount: row.price,
        now,
      });
      if (settled.kind === "settled") {
        renewed += 1;
        await services.sendEmail(renewedEmail(services, row));
      } else {
        // Paid but not honoured (the membership ended meanwhile): the core recorded the refund.
        await db.update(memberships).set({ retryAt: null, updatedAt: now }).where(eq(memberships.id, row.id));
      }
      continue;
    }
    await db
      .update(orders)
      .set({ status: "cancelled", failureReason: charge.reason, updatedAt: now })
      .where(and(eq(orders.id, order), eq(orders.status, "pending")));
    const failures = row.renewalFailures + 1;
    const nextTry = retryAt(row.paidUntil, failures);
    await db
      .update(memberships)
      .set({ renewalFailures: failures, retryAt: nextTry, updatedAt: now })
      .where(eq(memberships.id, row.id));
    await services.sendEmail(failedEmail(services, row, nextTry));
  }
  return renewed;
}

/**
 * A pending order for one renewal of `row`, at the tier's price today (or what the provider
 * charged, for a subscription's renewal); answers its id.
 */
async function renewalOrder(db: Db, row: Due, currency: string, now: Date, amount = row.price) {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .insert(orders)
      .values({
        userId: row.userId,
        email: row.email,
        currency,
        subtotal: amount,
        total: amount,
        provider: row.paymentMethod?.startsWith("test:") ? "test" : "stripe",
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: orders.id });
    await tx.insert(orderItems).values({
      orderId: order!.id,
      kind: "membership",
      tierId: row.tierId,
      renewsMembershipId: row.id,
      description: `${row.tierName} membership renewal`,
      unitPrice: amount,
      quantity: 1,
      createdAt: now,
    });
    return order!.id;
  });
}

/** The memberships whose grace days ran out unpaid at `now`, told once. */
async function sendLapses(services: MembershipClockServices, now: Date) {
  const { db } = services;
  const due = await from(db).where(
    and(
      isNull(memberships.endedAt),
      eq(memberships.renews, true),
      sql`${memberships.paidUntil} + make_interval(days => ${GRACE_DAYS}) <= ${now.toISOString()}::timestamptz`,
      sql`${memberships.lapseNoticeFor} is distinct from ${memberships.paidUntil}`,
    ),
  );
  for (const row of due) {
    await services.sendEmail(lapsedEmail(services, row));
    await db
      .update(memberships)
      .set({ lapseNoticeFor: row.paidUntil, updatedAt: now })
      .where(eq(memberships.id, row.id));
  }
  return due.length;
}

/** One tick of the membership clock at `now`: subscriptions, reminders, renewals and retries, lapse notices. */
export async function runMembershipClock(services: MembershipClockServices, now: Date) {
  await syncSubscriptions(services, now);
  const reminded = await sendReminders(services, now);
  const renewed = await chargeRenewals(services, now);
  const lapsed = await sendLapses(services, now);
  return { reminded, renewed, lapsed };
}

/**
 * The one-click "turn renewal off" of the reminder email: the link names the membership and the
 * renewal it was sent for, signed, so it works without signing in and only for that membership.
 */
/** What the link's page asks about: the membership it names, when the link is right. */
export async function renewalLinkMembership(db: Db, input: { token: string; secret: string }) {
  const named = readRenewalToken(input.token, input.secret);
  if (!named) return null;
  const [row] = await db
    .select({ tierName: membershipTiers.name, renews: memberships.renews })
    .from(memberships)
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .where(and(eq(memberships.id, named.membershipId), isNull(memberships.endedAt)));
  return row ?? null;
}

export const PROVIDER_UNREACHABLE =
  "We could not reach the payment provider to change your renewal: nothing changed. Try again in a minute.";

export async function stopRenewalByLink(
  db: Db,
  input: { token: string; secret: string; now: Date; billing?: MembershipBilling },
) {
  const named = readRenewalToken(input.token, input.secret);
  if (!named) return { ok: false as const, message: "This link is not valid: turn renewal off from your account" };
  const [row] = await db
    .select({
      id: memberships.id,
      tierName: membershipTiers.name,
      paidUntil: memberships.paidUntil,
      timeZone: membershipTiers.timeZone,
      paymentMethod: memberships.paymentMethod,
    })
    .from(memberships)
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .where(and(eq(memberships.id, named.membershipId), isNull(memberships.endedAt)));
  if (!row) return { ok: false as const, message: "This membership has ended: there is nothing to turn off" };
  if (!(await renewalOnProvider(input.billing, row.paymentMethod, false))) {
    return { ok: false as const, message: PROVIDER_UNREACHABLE };
  }
  await db.update(memberships).set({ renews: false, updatedAt: input.now }).where(eq(memberships.id, row.id));
  return { ok: true as const, tierName: row.tierName, until: membershipDate(row.paidUntil, row.timeZone) };
}

/**
 * Charges a renewal to a test card, as the test checkout stands in for a provider: it is
 * approved unless the test clock made the card decline. A way to pay saved by another provider
 * is not charged here.
 */
export const chargeTestCard: ChargeRenewal = async ({ paymentMethod, orderId }) => {
  if (paymentMethod === TEST_DECLINED_CARD) return { ok: false, reason: "The card was declined" };
  if (paymentMethod !== TEST_CARD) return { ok: false, reason: "This way to pay cannot be charged for renewals" };
  return { ok: true, provider: "test", paymentReference: `test_renewal_${orderId}` };
};

/**
 * Stripe Billing (docs/membership.md, "Payment providers"): a membership paid for with Stripe on
 * a tier that renews gets a subscription on the card its payment saved, first charging on the
 * day its paid period ends. Stripe charges and retries; the site keeps its own rules and records:
 * the reminder (with the subscription's price brought up to the tier's first), the renewal's
 * order when Stripe reports a renewal paid, the failed-payment email, grace and lapse as for any
 * renewal, and the subscription stopped when the membership ends.
 */
async function syncSubscriptions(services: MembershipClockServices, now: Date) {
  const { db, billing } = services;
  if (!billing) return;
  // A subscription on a renewal date staff moved stops, and is made again for the new date.
  const moved = await db
    .select({ id: memberships.id, paymentMethod: memberships.paymentMethod })
    .from(memberships)
    .where(like(memberships.paymentMethod, `${STRIPE_MOVED}%`));
  for (const row of moved) {
    await billing.cancel(row.paymentMethod!.slice(STRIPE_MOVED.length));
    await db
      .update(memberships)
      .set({ paymentMethod: STRIPE_PENDING, updatedAt: now })
      .where(and(eq(memberships.id, row.id), eq(memberships.paymentMethod, row.paymentMethod!)));
  }
  const joining = await db
    .select({
      id: memberships.id,
      paidUntil: memberships.paidUntil,
      paymentReference: orders.providerPaymentId,
      tierName: membershipTiers.name,
      price: membershipTiers.price,
      months: sql<number>`coalesce(${membershipTiers.rollingMonths}, 12)`.mapWith(Number),
    })
    .from(memberships)
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .innerJoin(orders, eq(orders.id, memberships.orderId))
    .where(and(renewing, eq(memberships.paymentMethod, STRIPE_PENDING), gt(memberships.paidUntil, now)));
  for (const row of joining) {
    const paymentMethod = await subscriptionFor(billing, row, services.brand.currency);
    await db
      .update(memberships)
      .set({ paymentMethod, updatedAt: now })
      .where(and(eq(memberships.id, row.id), eq(memberships.paymentMethod, STRIPE_PENDING)));
  }
  // A membership that ended early (cancelled in its cooling-off days, refunded by staff) stops
  // its subscription, so nothing more is charged.
  const ended = await db
    .select({ id: memberships.id, paymentMethod: memberships.paymentMethod })
    .from(memberships)
    .where(and(isNotNull(memberships.endedAt), like(memberships.paymentMethod, `${STRIPE_SUBSCRIPTION}%`)));
  for (const row of ended) {
    await billing.cancel(subscriptionOf(row.paymentMethod!)!);
    await db.update(memberships).set({ paymentMethod: null, updatedAt: now }).where(eq(memberships.id, row.id));
  }
}

/** The subscription for a membership just paid for by Stripe, or none when its payment saved no card. */
async function subscriptionFor(
  billing: MembershipBilling,
  row: {
    id: string;
    paidUntil: Date;
    paymentReference: string | null;
    tierName: string;
    price: number;
    months: number;
  },
  currency: string,
) {
  if (!row.paymentReference?.startsWith("pi_")) return null;
  try {
    const { subscriptionId } = await billing.subscribe({
      membershipId: row.id,
      paymentReference: row.paymentReference,
      price: { description: `${row.tierName} membership`, amount: row.price, currency, months: row.months },
      firstChargeAt: row.paidUntil,
    });
    return `stripe:${subscriptionId}`;
  } catch (error) {
    // No card to charge: the member renews by paying, asked by the clock when renewal is due.
    if (error instanceof PermanentPaymentError) return null;
    throw error;
  }
}

function subscriptionOf(paymentMethod: string | null) {
  return paymentMethod?.startsWith(STRIPE_SUBSCRIPTION) ? paymentMethod.slice("stripe:".length) : null;
}

/** Brings a subscription's price to the tier's before its reminder names it; false when Stripe could not be told. */
async function priceSubscription(services: MembershipClockServices, row: Due) {
  const subscription = subscriptionOf(row.paymentMethod);
  if (!subscription || !services.billing) return true;
  try {
    await services.billing.setPrice(subscription, {
      description: `${row.tierName} membership`,
      amount: row.price,
      currency: services.brand.currency,
      months: row.months,
    });
    return true;
  } catch (error) {
    getLog().warn({ err: error, membership: row.id }, "could not set a renewal's price on Stripe; reminding later");
    return false;
  }
}

/**
 * Renewal turned off or on, on the provider as well: Stripe stops (or goes on) charging at the
 * end of the paid period. Answers false when the provider could not be told, and nothing changed.
 */
export async function renewalOnProvider(
  billing: MembershipBilling | undefined,
  paymentMethod: string | null,
  renews: boolean,
) {
  const subscription = subscriptionOf(paymentMethod);
  if (!subscription || !billing) return true;
  try {
    await billing.setRenewing(subscription, renews);
    return true;
  } catch (error) {
    getLog().warn({ err: error }, "could not change a subscription's renewal on Stripe");
    return false;
  }
}

/**
 * What a Stripe Billing notification does to its membership. Each is safe to receive twice: a
 * renewal is one order per payment, a failure is counted once per next attempt, an end is a state.
 */
export async function applyBillingEvent(services: MembershipClockServices, event: BillingEvent, now: Date) {
  const { db } = services;
  const [row] = await from(db).where(eq(memberships.paymentMethod, `stripe:${event.subscriptionId}`));
  if (!row) return { applied: false as const };
  if (event.kind === "subscription_ended") {
    await db.update(memberships).set({ paymentMethod: null, updatedAt: now }).where(eq(memberships.id, row.id));
    return { applied: true as const };
  }
  if (event.kind === "renewal_failed") {
    if (row.retryAt?.getTime() === event.nextAttemptAt?.getTime() && row.renewalFailures > 0) {
      return { applied: false as const };
    }
    await db
      .update(memberships)
      .set({ renewalFailures: row.renewalFailures + 1, retryAt: event.nextAttemptAt, updatedAt: now })
      .where(eq(memberships.id, row.id));
    await services.sendEmail(failedEmail(services, row, event.nextAttemptAt));
    return { applied: true as const };
  }
  const reference =
    event.paymentReference ?? (await services.billing?.invoicePayment(event.invoiceId)) ?? event.invoiceId;
  const [known] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.provider, "stripe"), eq(orders.providerPaymentId, reference)));
  if (known) return { applied: false as const };
  const order = await renewalOrder(db, row, event.currency, now, event.amount);
  const settled = await services.settle({
    orderId: order,
    provider: "stripe",
    paymentReference: reference,
    amount: event.amount,
    now,
  });
  if (settled.kind !== "settled") return { applied: false as const };
  await services.sendEmail(renewedEmail(services, { ...row, price: event.amount }));
  return { applied: true as const };
}

type ClockJobServices = {
  db: Db;
  payments?: Pick<PaymentGateway, "billing">;
  env: Pick<Env, "SITE_NAME" | "SITE_URL" | "CURRENCY" | "AUTH_SECRET">;
  outbox: Pick<Outbox, "sendEmail">;
};

/** The clock's services from the runtime's; `settle` is the commerce core's, from the composition root. */
export function membershipClockServices(
  { db, env, outbox, payments }: ClockJobServices,
  settle: (db: Db) => SettleRenewal,
): MembershipClockServices {
  const billing = payments?.billing;
  return {
    db,
    sendEmail: (email) => outbox.sendEmail(email),
    brand: { siteName: env.SITE_NAME, siteUrl: env.SITE_URL, currency: env.CURRENCY, secret: env.AUTH_SECRET },
    charge: chargeTestCard,
    settle: settle(db),
    billing,
  };
}

/** Every five minutes, one run at a time across every server: the membership clock at the real time. */
export function membershipClockJob(settle: (db: Db) => SettleRenewal) {
  return defineJob<object, ClockJobServices>({
    name: "membership-clock",
    schedule: "*/5 * * * *",
    policy: "stately",
    handler: async (_data, services) => {
      await runMembershipClock(membershipClockServices(services, settle), new Date());
    },
  });
}
