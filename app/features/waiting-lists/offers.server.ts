import { and, asc, eq, gt, inArray, lte, type SQL, sql } from "drizzle-orm";
import { accountEmail, type Branding } from "~/features/accounts/emails.server";
import { formatEventInstant } from "~/features/dates/event-dates";
import { salesWindow, ticketRemaining, ticketSalesState } from "~/features/events/sales";
import { listRunning } from "~/features/places/line-state";
import { availableUnits, readVariantStock, variantDescription } from "~/features/shop/stock.server";
import { readTicketStock } from "~/features/tickets/ticket-stock.server";
import { generateCode } from "~/features/vouchers/staff-vouchers.server";
import { countingOrder } from "~/features/vouchers/voucher-uses.server";
import type { Db } from "~/server/db/client.server";
import { transactionWithRetry } from "~/server/db/retry.server";
import type { Env } from "~/server/env.server";
import { defineJob } from "~/server/jobs/queue.server";
import type { OutboundEmail } from "~/server/mail/mail.server";
import type { Outbox } from "~/server/messages.server";
import { countOf } from "~/ui/plural";
import {
  events,
  orders,
  products,
  productVariants,
  ticketTypes,
  users,
  vouchers,
  voucherUses,
  waitingListEntries,
} from "../../../db/schema";
import { DEFAULT_OFFER_HOURS } from "../../../db/schema/waiting-lists";
import { offerEndsAt, offersToMake } from "./waiting-list-rules";

/**
 * Offers: the one place that hands places that came back to the people waiting for them. An offer
 * is a voucher for the member alone that keeps their places of the ticket type until it ends, so
 * the stock, the cart and checkout need nothing new to honour it (docs/waiting-lists.md).
 */

/** The hours a merch offer holds its units: the shop has no organizer setting for it. */
export const MERCH_OFFER_HOURS = DEFAULT_OFFER_HOURS;

/** An offer just made, with what its email says: places of a ticket type, or units of a variant. */
export type OfferMade = {
  entryId: string;
  email: string;
  name: string;
  quantity: number;
  endsAt: Date;
} & (
  | { kind: "places"; eventTitle: string; ticketTypeName: string; timeZone: string }
  | { kind: "units"; itemName: string }
);

/**
 * Those waiting in one line (a ticket type's or a variant's), in line order, their entries locked
 * for the offers about to be made to them.
 */
function waitingInLine(tx: Db, line: SQL) {
  return tx
    .select({
      id: waitingListEntries.id,
      userId: waitingListEntries.userId,
      quantity: waitingListEntries.quantity,
      email: users.email,
      name: users.name,
    })
    .from(waitingListEntries)
    .innerJoin(users, eq(users.id, waitingListEntries.userId))
    .where(and(line, eq(waitingListEntries.status, "waiting")))
    .orderBy(asc(waitingListEntries.sortKey), asc(waitingListEntries.id))
    .for("update", { of: waitingListEntries });
}

/** The events whose lists have someone waiting and are running at `now`. */
async function eventsWithPeopleWaiting(db: Db, now: Date) {
  const rows = await db
    .selectDistinct({ id: events.id })
    .from(waitingListEntries)
    .innerJoin(ticketTypes, eq(ticketTypes.id, waitingListEntries.ticketTypeId))
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(
      and(
        eq(waitingListEntries.status, "waiting"),
        eq(events.waitingListEnabled, true),
        eq(events.status, "published"),
        gt(sql`${events.startsAt} - make_interval(hours => ${events.waitingListClosesHours})`, now),
      ),
    );
  return rows.map((row) => row.id).sort();
}

/**
 * Offers the free places of one event's ticket types to the people waiting for them, in line
 * order, under the event's stock locks (ADR 0007: the event, then its ticket types, then the
 * waiting entries). Two servers running this at once queue on the event's row, and the second
 * sees the first's offers as places kept: nobody is offered twice, and no place is offered twice.
 */
async function offerEventPlaces(db: Db, eventId: string, now: Date): Promise<OfferMade[]> {
  return transactionWithRetry(db, async (tx) => {
    const stock = await readTicketStock(tx, [eventId], now, { lock: true, forWaitingLists: true });
    const event = stock.events.get(eventId);
    const [settings] = await tx
      .select({
        status: events.status,
        startsAt: events.startsAt,
        waitingListEnabled: events.waitingListEnabled,
        waitingListOfferHours: events.waitingListOfferHours,
        waitingListClosesHours: events.waitingListClosesHours,
        timeZone: events.timeZone,
      })
      .from(events)
      .where(eq(events.id, eventId));
    if (!event || !settings || !listRunning(settings, now)) return [];
    const types = stock.typesOfEvent(eventId);
    const made: OfferMade[] = [];
    for (const type of types) {
      const state = ticketSalesState(event, type, types, now);
      if (state.kind === "ended" || state.kind === "cancelled") continue;
      const { opensAt, closesAt } = salesWindow(event, type);
      if (opensAt && now < opensAt) continue;
      const free = ticketRemaining(event, type, types) ?? Number.POSITIVE_INFINITY;
      if (free <= 0) continue;
      const line = await waitingInLine(tx, eq(waitingListEntries.ticketTypeId, type.id));
      const endsAt = offerEndsAt(now, settings.waitingListOfferHours, closesAt);
      for (const entry of offersToMake(line, free)) {
        const voucherId = await offerVoucher(
          tx,
          { userId: entry.userId, quantity: entry.quantity, endsAt, now },
          {
            ticketTypeIds: [type.id],
          },
        );
        await markOffered(tx, entry.id, voucherId, endsAt, now);
        stock.take(type.id, entry.quantity);
        made.push({
          kind: "places",
          entryId: entry.id,
          email: entry.email,
          name: entry.name,
          eventTitle: event.title,
          ticketTypeName: type.name,
          quantity: entry.quantity,
          endsAt,
          timeZone: settings.timeZone,
        });
      }
    }
    return made;
  });
}

/** The merch variants with someone waiting whose product is in the shop with its lists on. */
async function variantsWithPeopleWaiting(db: Db) {
  const rows = await db
    .selectDistinct({ id: productVariants.id })
    .from(waitingListEntries)
    .innerJoin(productVariants, eq(productVariants.id, waitingListEntries.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      and(eq(waitingListEntries.status, "waiting"), eq(productVariants.active, true), eq(products.status, "active")),
    );
  return rows.map((row) => row.id).sort();
}

/**
 * Offers a variant's units on the shelf to the people waiting for them, in line order, under the
 * variant's row lock (the lock checkout takes, then the waiting entries). Like places, two servers
 * queue on the row and the second sees the first's offers as units kept.
 */
async function offerVariantUnits(db: Db, variantId: string, now: Date): Promise<OfferMade[]> {
  return transactionWithRetry(db, async (tx) => {
    const stock = await readVariantStock(tx, [variantId], now, { lock: true, forWaitingLists: true });
    const variant = stock.variants.get(variantId);
    if (!variant?.active || variant.productStatus !== "active" || !variant.waitingListEnabled) return [];
    const free = availableUnits(variant);
    if (free <= 0) return [];
    const line = await waitingInLine(tx, eq(waitingListEntries.variantId, variantId));
    const endsAt = new Date(now.getTime() + MERCH_OFFER_HOURS * 3_600_000);
    const made: OfferMade[] = [];
    for (const entry of offersToMake(line, free)) {
      const voucherId = await offerVoucher(
        tx,
        { userId: entry.userId, quantity: entry.quantity, endsAt, now },
        {
          variantIds: [variantId],
        },
      );
      await markOffered(tx, entry.id, voucherId, endsAt, now);
      stock.take(variantId, entry.quantity);
      made.push({
        kind: "units",
        entryId: entry.id,
        email: entry.email,
        name: entry.name,
        itemName: variantDescription(variant),
        quantity: entry.quantity,
        endsAt,
      });
    }
    return made;
  });
}

/** The code that keeps an offer's places (or units) for the member alone until it ends. */
async function offerVoucher(
  tx: Db,
  offer: { userId: string; quantity: number; endsAt: Date; now: Date },
  target: { ticketTypeIds: string[] } | { variantIds: string[] },
) {
  const [voucher] = await tx
    .insert(vouchers)
    .values({
      code: generateCode(),
      label: "Waiting list offer",
      effect: "amount_off",
      value: 0,
      ...target,
      maxUses: offer.quantity,
      maxUsesPerMember: offer.quantity,
      validUntil: offer.endsAt,
      holdsPlaces: true,
      forUserId: offer.userId,
      createdAt: offer.now,
      updatedAt: offer.now,
    })
    .returning({ id: vouchers.id });
  return voucher!.id;
}

async function markOffered(tx: Db, entryId: string, voucherId: string, endsAt: Date, now: Date) {
  await tx
    .update(waitingListEntries)
    .set({ status: "offered", offerVoucherId: voucherId, offeredAt: now, offerEndsAt: endsAt, updatedAt: now })
    .where(eq(waitingListEntries.id, entryId));
}

/** Offers every running list's free places and units (each event or variant on its own, so locks stay short). */
async function offerFreedPlaces(db: Db, now: Date): Promise<OfferMade[]> {
  const made: OfferMade[] = [];
  for (const eventId of await eventsWithPeopleWaiting(db, now))
    made.push(...(await offerEventPlaces(db, eventId, now)));
  for (const variantId of await variantsWithPeopleWaiting(db))
    made.push(...(await offerVariantUnits(db, variantId, now)));
  return made;
}

const PAID_STATUSES = ["paid", "fulfilled", "partly_refunded"] as const;

/**
 * Settles offers that are done: taken up (an order paid with the offer's code) becomes `bought`;
 * ended with no order paid or still being paid for becomes `lapsed`, and its kept places, already
 * free for the next in line since the code ended, are offered on by the next run of the sweep.
 */
async function closeOffers(db: Db, now: Date) {
  const usedBy = (statuses: ReturnType<typeof inArray> | ReturnType<typeof countingOrder>) =>
    sql`exists (${db
      .select({ one: sql`1` })
      .from(voucherUses)
      .innerJoin(orders, eq(orders.id, voucherUses.orderId))
      .where(and(eq(voucherUses.voucherId, waitingListEntries.offerVoucherId), statuses))})`;
  const bought = await db
    .update(waitingListEntries)
    .set({ status: "bought", updatedAt: now })
    .where(and(eq(waitingListEntries.status, "offered"), usedBy(inArray(orders.status, [...PAID_STATUSES]))))
    .returning({ id: waitingListEntries.id });
  const lapsed = await db
    .update(waitingListEntries)
    .set({ status: "lapsed", updatedAt: now })
    .where(
      and(
        eq(waitingListEntries.status, "offered"),
        lte(waitingListEntries.offerEndsAt, now),
        sql`not ${usedBy(countingOrder(now)!)}`,
      ),
    )
    .returning({ id: waitingListEntries.id });
  return { bought: bought.length, lapsed: lapsed.length };
}

/** The email telling a member their places (or items of merch) are held. */
function offerEmail(brand: WaitingListServices["brand"], offer: OfferMade): OutboundEmail {
  const url = `${brand.siteUrl}/members/offers/${offer.entryId}`;
  const footnote = `Changed your mind? Leave the list from ${brand.siteUrl}/members/events and ${offer.quantity === 1 ? "it goes" : "they go"} to the next person.`;
  if (offer.kind === "units") {
    const items = countOf(offer.quantity, "item", "items");
    return accountEmail(brand, offer.email, `${offer.itemName} is back in stock for you`, {
      greeting: `Hi ${offer.name},`,
      lines: [
        `Good news: ${offer.itemName} is back in stock, and you are next on the waiting list for ${items}.`,
        `We are holding ${offer.quantity === 1 ? "it" : "them"} for you until ${formatEventInstant(offer.endsAt, brand.timeZone)}. After that ${offer.quantity === 1 ? "it goes" : "they go"} to the next person in line.`,
      ],
      action: { label: offer.quantity === 1 ? "Buy it now" : "Buy them now", url },
      footnote,
    });
  }
  const places = countOf(offer.quantity, "place", "places");
  return accountEmail(brand, offer.email, `Places for ${offer.eventTitle} are yours to buy`, {
    greeting: `Hi ${offer.name},`,
    lines: [
      `Good news: ${places} came back for ${offer.ticketTypeName} at ${offer.eventTitle}, and you are next on the waiting list.`,
      `We are holding them for you until ${formatEventInstant(offer.endsAt, offer.timeZone)}. After that they go to the next person in line.`,
    ],
    action: { label: "Buy my places", url },
    footnote,
  });
}

export type WaitingListServices = {
  db: Db;
  /** With the site's time zone, for merch offers, which belong to no event. */
  brand: Branding & { timeZone: string };
  sendEmail(email: OutboundEmail): Promise<void>;
};

/**
 * What is due at `now`: ends finished offers, then offers the places free to the people next in
 * line, emailing each. Safe to run at any moment and on any number of servers; the job runs it
 * every minute, and the test clock at the moment it is told.
 */
export async function runWaitingLists(services: WaitingListServices, now: Date) {
  const closed = await closeOffers(services.db, now);
  const made = await offerFreedPlaces(services.db, now);
  // Sent after the offers are saved: a crash in between leaves the offer on the member's page.
  for (const offer of made) await services.sendEmail(offerEmail(services.brand, offer));
  return { ...closed, offered: made.length };
}

type JobServices = {
  db: Db;
  env: Pick<Env, "SITE_NAME" | "SITE_URL" | "TIME_ZONE">;
  outbox: Pick<Outbox, "sendEmail">;
};

/** The sweep's services from the runtime's. */
export function waitingListServices({ db, env, outbox }: JobServices): WaitingListServices {
  return {
    db,
    brand: { siteName: env.SITE_NAME, siteUrl: env.SITE_URL, timeZone: env.TIME_ZONE },
    sendEmail: (email) => outbox.sendEmail(email),
  };
}

/** Every minute, one run at a time across every server. */
export const waitingListJob = defineJob<object, JobServices>({
  name: "waiting-lists",
  expireInSeconds: 300,
  schedule: "* * * * *",
  policy: "stately",
  retryLimit: 2,
  retryDelay: 10,
  handler: async (_data, services) => {
    await runWaitingLists(waitingListServices(services), new Date());
  },
});
