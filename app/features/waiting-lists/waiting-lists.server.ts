import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { recordAudit } from "~/features/audit/audit.server";
import { getOrCreateCart, setCartItem } from "~/features/cart/cart.server";
import { eventDateLabels, formatEventInstant } from "~/features/dates/event-dates";
import { mayBuy, ticketSalesState } from "~/features/events/sales";
import { gone, type NotFound, type Refusal, refuse as refusal } from "~/features/forms/refusal";
import { membershipBuyer } from "~/features/membership/memberships.server";
import { listClosesAt, listRunning } from "~/features/places/line-state";
import { addVariantToCart, removeMerchLine } from "~/features/shop/cart-merch.server";
import { availableUnits, readVariantStock, variantDescription } from "~/features/shop/stock.server";
import { readTicketStock } from "~/features/tickets/ticket-stock.server";
import type { Db } from "~/server/db/client.server";
import { isUniqueViolation } from "~/server/db/retry.server";
import {
  carts,
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
import { joiningSortKey, joinProblem, quantityProblem, sortKeyAt, variantJoinProblem } from "./waiting-list-rules";

/**
 * Members on waiting lists: joining, leaving, where they stand, and taking up an offer; and the
 * organizer's view of an event's lists (docs/waiting-lists.md). Offers are made by the sweep in
 * `offers.server.ts`, the one place that hands out places.
 */

const refuse = (message: string, field = ""): Refusal => refusal(field, message);

const live = inArray(waitingListEntries.status, ["waiting", "offered"]);

/**
 * An entry the member still has in hand: waiting, or an offer not yet paid for. The sweep marks a
 * paid offer bought within the minute; the member's pages stop showing it as soon as they pay.
 */
const inHand = and(
  live,
  sql`not exists (
    select 1 from ${voucherUses} inner join ${orders} on ${orders.id} = ${voucherUses.orderId}
    where ${voucherUses.voucherId} = ${waitingListEntries.offerVoucherId}
      and ${orders.status} in ('paid', 'fulfilled', 'partly_refunded')
  )`,
);

/** Joins the list for a sold-out ticket type with the places wanted (up to the order limit). */
export async function joinWaitingList(
  db: Db,
  input: { userId: string; eventId: string; ticketTypeId: string; quantity: number; now: Date },
): Promise<{ ok: true; name: string; position: number } | Refusal> {
  const { now } = input;
  const stock = await readTicketStock(db, [input.eventId], now, { lock: false, exceptUserId: input.userId });
  const event = stock.events.get(input.eventId);
  const type = stock.types.get(input.ticketTypeId);
  if (!event || !type || type.eventId !== input.eventId || type.hidden) {
    return refuse("These tickets are not sold on this page");
  }
  const [settings] = await db
    .select({
      status: events.status,
      startsAt: events.startsAt,
      waitingListEnabled: events.waitingListEnabled,
      waitingListOfferHours: events.waitingListOfferHours,
      waitingListClosesHours: events.waitingListClosesHours,
    })
    .from(events)
    .where(eq(events.id, input.eventId));
  const buyer = await membershipBuyer(db, input.userId, now);
  if (!mayBuy(type, buyer)) return refuse("These tickets are for club members only");
  const state = ticketSalesState(event, type, stock.typesOfEvent(event.id), now, buyer);
  const problem = joinProblem(settings!, state, now) ?? quantityProblem(input.quantity, type.maxPerOrder);
  if (problem) return refuse(problem, "quantity");
  try {
    await db.insert(waitingListEntries).values({
      ticketTypeId: type.id,
      userId: input.userId,
      quantity: input.quantity,
      sortKey: joiningSortKey(now),
      createdAt: now,
      updatedAt: now,
    });
  } catch (error) {
    if (isUniqueViolation(error)) return refuse("You are already on the waiting list for these tickets");
    throw error;
  }
  const [entry] = await memberEntries(db, input.userId, { ticketTypeId: type.id });
  return { ok: true, name: type.name, position: entry?.position ?? 1 };
}

/**
 * Leaves a list, or turns down an offer: an offer's code is switched off at once, so its places go
 * back to the line at the sweep's next run.
 */
export async function leaveWaitingList(db: Db, input: { userId: string; entryId: string; now: Date }) {
  return db.transaction(async (tx) => {
    const [left] = await tx
      .update(waitingListEntries)
      .set({ status: "left", updatedAt: input.now })
      .where(and(eq(waitingListEntries.id, input.entryId), eq(waitingListEntries.userId, input.userId), live))
      .returning({ voucherId: waitingListEntries.offerVoucherId, ticketTypeId: waitingListEntries.ticketTypeId });
    if (!left) return false;
    if (left.voucherId) {
      await tx.update(vouchers).set({ active: false, updatedAt: input.now }).where(eq(vouchers.id, left.voucherId));
    }
    return true;
  });
}

/**
 * People ahead of an entry in its line (a ticket type's or a variant's: each entry names one, so
 * one of the two comparisons is null): those waiting with a smaller sort key.
 */
const position = sql<number>`(
  select count(*)::int + 1 from ${waitingListEntries} ahead
  where (ahead.ticket_type_id = ${waitingListEntries.ticketTypeId} or ahead.variant_id = ${waitingListEntries.variantId})
    and ahead.status = 'waiting'
    and (ahead.sort_key, ahead.id) < (${waitingListEntries.sortKey}, ${waitingListEntries.id})
)`.mapWith(Number);

/** A member's places in line and offers, soonest event first, with where each stands. */
async function memberEntries(db: Db, userId: string, filter: { ticketTypeId?: string; eventId?: string } = {}) {
  return db
    .select({
      id: waitingListEntries.id,
      status: waitingListEntries.status,
      quantity: waitingListEntries.quantity,
      position,
      offerEndsAt: waitingListEntries.offerEndsAt,
      ticketTypeId: ticketTypes.id,
      ticketTypeName: ticketTypes.name,
      eventId: events.id,
      eventSlug: events.slug,
      eventTitle: events.title,
      startsAt: events.startsAt,
      endsAt: events.endsAt,
      timeZone: events.timeZone,
      closesHours: events.waitingListClosesHours,
    })
    .from(waitingListEntries)
    .innerJoin(ticketTypes, eq(ticketTypes.id, waitingListEntries.ticketTypeId))
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(
      and(
        eq(waitingListEntries.userId, userId),
        inHand,
        filter.ticketTypeId ? eq(waitingListEntries.ticketTypeId, filter.ticketTypeId) : undefined,
        filter.eventId ? eq(events.id, filter.eventId) : undefined,
      ),
    )
    .orderBy(asc(events.startsAt), asc(ticketTypes.sortOrder), asc(waitingListEntries.id));
}

/** A member's places in line and offers for merch variants, in the shop's order. */
async function memberVariantEntries(db: Db, userId: string, filter: { productId?: string } = {}) {
  return db
    .select({
      id: waitingListEntries.id,
      status: waitingListEntries.status,
      quantity: waitingListEntries.quantity,
      position,
      offerEndsAt: waitingListEntries.offerEndsAt,
      variantId: productVariants.id,
      options: productVariants.options,
      productSlug: products.slug,
      productTitle: products.title,
    })
    .from(waitingListEntries)
    .innerJoin(productVariants, eq(productVariants.id, waitingListEntries.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      and(
        eq(waitingListEntries.userId, userId),
        inHand,
        filter.productId ? eq(products.id, filter.productId) : undefined,
      ),
    )
    .orderBy(asc(products.title), asc(productVariants.position), asc(waitingListEntries.id));
}

/**
 * Joins the line for a sold-out merch variant with the units wanted (up to its per-order limit):
 * the first units back on the shelf are offered to the line before they go on sale.
 */
export async function joinVariantWaitingList(
  db: Db,
  input: { userId: string; variantId: string; quantity: number; now: Date },
): Promise<{ ok: true; name: string; position: number } | Refusal> {
  const stock = await readVariantStock(db, [input.variantId], input.now, { lock: false, exceptUserId: input.userId });
  const variant = stock.variants.get(input.variantId);
  const problem =
    variantJoinProblem(variant ? { ...variant, available: availableUnits(variant) } : null) ??
    quantityProblem(input.quantity, variant?.maxPerOrder ?? 1, "item");
  if (problem || !variant) return refuse(problem ?? "This item is not in the shop", "quantity");
  try {
    await db.insert(waitingListEntries).values({
      variantId: variant.id,
      userId: input.userId,
      quantity: input.quantity,
      sortKey: joiningSortKey(input.now),
      createdAt: input.now,
      updatedAt: input.now,
    });
  } catch (error) {
    if (isUniqueViolation(error)) return refuse("You are already on the waiting list for this item");
    throw error;
  }
  const entries = await memberVariantEntries(db, input.userId, { productId: variant.productId });
  const entry = entries.find((row) => row.variantId === variant.id);
  return { ok: true, name: variantDescription(variant), position: entry?.position ?? 1 };
}

/** What a member's product page shows by each variant they wait for or hold an offer on. */
export async function memberListsOnProduct(db: Db, userId: string, productId: string, now: Date, timeZone: string) {
  const rows = await memberVariantEntries(db, userId, { productId });
  return Object.fromEntries(
    rows.map((row) => [
      row.variantId,
      {
        entryId: row.id,
        quantity: row.quantity,
        position: row.status === "waiting" ? row.position : null,
        offerEndsLabel: runningOffer(row, now, timeZone)?.endsLabel ?? null,
      },
    ]),
  );
}

export type MemberListOnProduct = Awaited<ReturnType<typeof memberListsOnProduct>>[string];

/** An offer's end, when it is still running at `now`. */
function runningOffer(row: { status: string; offerEndsAt: Date | null }, now: Date, timeZone: string) {
  return row.status === "offered" && row.offerEndsAt && row.offerEndsAt > now
    ? { endsAt: row.offerEndsAt.toISOString(), endsLabel: formatEventInstant(row.offerEndsAt, timeZone) }
    : null;
}

/**
 * A member's lists as their tickets page shows them: tickets first, soonest event first, then
 * merch. `timeZone` is the site's, for merch offers, which belong to no event.
 */
export async function waitingListsOfMember(db: Db, userId: string, now: Date, timeZone: string) {
  const [tickets, merch] = await Promise.all([memberEntries(db, userId), memberVariantEntries(db, userId)]);
  return [
    ...tickets.map((row) => ({
      id: row.id,
      title: row.eventTitle,
      href: `/events/${row.eventSlug}`,
      detail: eventDateLabels(row.startsAt, row.endsAt, row.timeZone).dates,
      itemName: row.ticketTypeName,
      quantity: row.quantity,
      unit: "place" as const,
      position: row.status === "waiting" ? row.position : null,
      offer: runningOffer(row, now, row.timeZone),
      closesLabel: formatEventInstant(
        listClosesAt({ startsAt: row.startsAt, waitingListClosesHours: row.closesHours }),
        row.timeZone,
      ),
    })),
    ...merch.map((row) => ({
      id: row.id,
      title: row.productTitle,
      href: `/shop/${row.productSlug}`,
      detail: "Shop",
      itemName: row.options.join(" / ") || row.productTitle,
      quantity: row.quantity,
      unit: "item" as const,
      position: row.status === "waiting" ? row.position : null,
      offer: runningOffer(row, now, timeZone),
      closesLabel: null,
    })),
  ];
}

export type MemberWaitingList = Awaited<ReturnType<typeof waitingListsOfMember>>[number];

/**
 * Takes up an offer: its code goes in the member's cart with the places (or units) offered, which
 * the code keeps for them alone until the offer ends. Checkout then sells them like any others.
 */
export async function claimOffer(
  db: Db,
  input: { userId: string; entryId: string; now: Date },
): Promise<{ ok: true; quantity: number; name: string } | Refusal> {
  const [entry] = await db
    .select({
      status: waitingListEntries.status,
      quantity: waitingListEntries.quantity,
      ticketTypeId: waitingListEntries.ticketTypeId,
      variantId: waitingListEntries.variantId,
      voucherId: waitingListEntries.offerVoucherId,
      endsAt: waitingListEntries.offerEndsAt,
      ticketTypeName: ticketTypes.name,
    })
    .from(waitingListEntries)
    .leftJoin(ticketTypes, eq(ticketTypes.id, waitingListEntries.ticketTypeId))
    .where(and(eq(waitingListEntries.id, input.entryId), eq(waitingListEntries.userId, input.userId)));
  if (entry?.status !== "offered" || !entry.voucherId || !entry.endsAt) {
    return refuse("There is no offer for you on this list now");
  }
  if (entry.endsAt <= input.now) return refuse("This offer has ended, and the places have gone to the next in line");
  const buyer = await membershipBuyer(db, input.userId, input.now);
  try {
    return await db.transaction(async (tx) => {
      const cartId = await getOrCreateCart(tx, { userId: input.userId });
      await tx.update(carts).set({ voucherId: entry.voucherId, updatedAt: input.now }).where(eq(carts.id, cartId));
      if (entry.variantId) {
        // The offer's units replace whatever the cart had of the variant, so a second claim adds nothing.
        await removeMerchLine(tx, { cartId, variantId: entry.variantId, now: input.now });
        const added = await addVariantToCart(tx, {
          cartId,
          variantId: entry.variantId,
          quantity: entry.quantity,
          now: input.now,
          userId: input.userId,
        });
        if (!added.ok) throw new Refused(added.problem.message);
        return { ok: true as const, quantity: entry.quantity, name: added.name };
      }
      const change = await setCartItem(tx, {
        cartId,
        ticketTypeId: entry.ticketTypeId!,
        quantity: entry.quantity,
        now: input.now,
        userId: input.userId,
        member: buyer.member,
      });
      // Nothing changes in the cart when the places cannot go in it.
      if (!change.ok) throw new Refused(change.problem.message);
      return { ok: true as const, quantity: entry.quantity, name: entry.ticketTypeName ?? "" };
    });
  } catch (error) {
    if (error instanceof Refused) return refuse(error.message);
    throw error;
  }
}

/** Rolls back a claim the cart's rules refused. */
class Refused extends Error {}

/** What a member's event page shows by each ticket type they wait for or hold an offer on. */
export async function memberListsOnEvent(db: Db, userId: string, eventId: string, now: Date) {
  const rows = await memberEntries(db, userId, { eventId });
  return Object.fromEntries(
    rows.map((row) => [
      row.ticketTypeId,
      {
        entryId: row.id,
        quantity: row.quantity,
        position: row.status === "waiting" ? row.position : null,
        offerEndsLabel:
          row.status === "offered" && row.offerEndsAt && row.offerEndsAt > now
            ? formatEventInstant(row.offerEndsAt, row.timeZone)
            : null,
      },
    ]),
  );
}

export type MemberListOnEvent = Awaited<ReturnType<typeof memberListsOnEvent>>[string];

// ── The organizer's side ──────────────────────────────────────────────────────

type LineRow = {
  id: string;
  lineId: string;
  status: (typeof waitingListEntries.$inferSelect)["status"];
  quantity: number;
  position: number;
  joinedAt: Date;
  offerEndsAt: Date | null;
  name: string;
  email: string;
};

/** Each line (a ticket type's or a variant's) with its entries for staff, leaving out empty lines. */
function linesOf(owners: readonly { id: string; name: string }[], rows: readonly LineRow[], zone: string) {
  return owners
    .map((owner) => {
      const entries = rows
        .filter((row) => row.lineId === owner.id)
        .map((row) => ({
          id: row.id,
          status: row.status,
          quantity: row.quantity,
          position: row.status === "waiting" ? row.position : null,
          joined: formatEventInstant(row.joinedAt, zone),
          offerEnds: row.status === "offered" && row.offerEndsAt ? formatEventInstant(row.offerEndsAt, zone) : null,
          name: row.name,
          email: row.email,
        }));
      const waiting = entries.filter((e) => e.status === "waiting").reduce((sum, e) => sum + e.quantity, 0);
      return { id: owner.id, name: owner.name, entries, waiting };
    })
    .filter((line) => line.entries.length > 0);
}

/** What staff see of each entry in a line (with the member's name and email, joined in). */
const staffColumns = {
  id: waitingListEntries.id,
  status: waitingListEntries.status,
  quantity: waitingListEntries.quantity,
  position,
  joinedAt: waitingListEntries.createdAt,
  offerEndsAt: waitingListEntries.offerEndsAt,
  name: users.name,
  email: users.email,
};

/** Staff's order of a line's entries: offers, then those waiting in line, then the rest, latest first. */
const staffOrder = [
  sql`case ${waitingListEntries.status} when 'offered' then 0 when 'waiting' then 1 else 2 end`,
  asc(waitingListEntries.sortKey),
  desc(waitingListEntries.updatedAt),
];

/** An event's lists for its organizer: settings, and each ticket type's line and recent outcomes. */
export async function waitingListPage(db: Db, eventId: string, now: Date) {
  const [event] = await db
    .select({
      id: events.id,
      title: events.title,
      status: events.status,
      startsAt: events.startsAt,
      timeZone: events.timeZone,
      waitingListEnabled: events.waitingListEnabled,
      waitingListOfferHours: events.waitingListOfferHours,
      waitingListClosesHours: events.waitingListClosesHours,
    })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event) return null;
  const rows = await db
    .select({ lineId: ticketTypes.id, ...staffColumns })
    .from(waitingListEntries)
    .innerJoin(users, eq(users.id, waitingListEntries.userId))
    .innerJoin(ticketTypes, eq(ticketTypes.id, waitingListEntries.ticketTypeId))
    .where(and(eq(ticketTypes.eventId, eventId), ne(waitingListEntries.status, "left")))
    .orderBy(...staffOrder);
  const types = await db
    .select({ id: ticketTypes.id, name: ticketTypes.name })
    .from(ticketTypes)
    .where(eq(ticketTypes.eventId, eventId))
    .orderBy(asc(ticketTypes.sortOrder), asc(ticketTypes.createdAt));
  const lists = linesOf(
    types.map((type) => ({ id: type.id, name: type.name })),
    rows,
    event.timeZone,
  );
  return {
    event: { id: event.id, title: event.title },
    settings: {
      enabled: event.waitingListEnabled,
      offerHours: event.waitingListOfferHours,
      closesHours: event.waitingListClosesHours,
    },
    closesLabel: formatEventInstant(listClosesAt(event), event.timeZone),
    running: listRunning(event, now),
    lists,
    couldSell: lists.reduce((sum, list) => sum + list.waiting, 0),
  };
}

/** A product's waiting lists for staff: whether they run, and each variant's line. */
export async function productWaitingLists(db: Db, productId: string, timeZone: string) {
  const [product] = await db
    .select({ id: products.id, title: products.title, enabled: products.waitingListEnabled })
    .from(products)
    .where(eq(products.id, productId));
  if (!product) return null;
  const rows = await db
    .select({ lineId: productVariants.id, ...staffColumns })
    .from(waitingListEntries)
    .innerJoin(users, eq(users.id, waitingListEntries.userId))
    .innerJoin(productVariants, eq(productVariants.id, waitingListEntries.variantId))
    .where(and(eq(productVariants.productId, productId), ne(waitingListEntries.status, "left")))
    .orderBy(...staffOrder);
  const variants = await db
    .select({ id: productVariants.id, options: productVariants.options, sku: productVariants.sku })
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.position), asc(productVariants.sku));
  const lists = linesOf(
    variants.map((variant) => ({ id: variant.id, name: variant.options.join(" / ") || variant.sku })),
    rows,
    timeZone,
  );
  return {
    product: { id: product.id, title: product.title },
    enabled: product.enabled,
    lists,
    couldSell: lists.reduce((sum, list) => sum + list.waiting, 0),
  };
}

/** Switches a product's waiting lists on or off, audited. People already waiting keep their place. */
export async function saveProductWaitingList(db: Db, productId: string, enabled: boolean, actor: Actor) {
  return db.transaction(async (tx) => {
    const [saved] = await tx
      .update(products)
      .set({ waitingListEnabled: enabled, updatedAt: actor.now })
      .where(eq(products.id, productId))
      .returning({ id: products.id });
    if (!saved) return false;
    await recordAudit(tx, {
      actorId: actor.actorId,
      action: "product.waiting_list",
      subjectType: "product",
      subjectId: productId,
      ip: actor.ip,
      details: { enabled },
    });
    return true;
  });
}

type Actor = { actorId: string; ip?: string | null; now: Date };

export type ListSettingsInput = { enabled: boolean; offerHours: number; closesHours: number };

/** Saves the event's waiting-list settings, audited. */
export async function saveWaitingListSettings(db: Db, eventId: string, settings: ListSettingsInput, actor: Actor) {
  return db.transaction(async (tx) => {
    const [saved] = await tx
      .update(events)
      .set({
        waitingListEnabled: settings.enabled,
        waitingListOfferHours: settings.offerHours,
        waitingListClosesHours: settings.closesHours,
        updatedAt: actor.now,
      })
      .where(eq(events.id, eventId))
      .returning({ id: events.id });
    if (!saved) return false;
    await recordAudit(tx, {
      actorId: actor.actorId,
      action: "event.waiting_list",
      subjectType: "event",
      subjectId: eventId,
      ip: actor.ip,
      details: { ...settings },
    });
    return true;
  });
}

/** Whose lines a move may touch: an event's ticket types, or a product's variants. */
export type LineOwner = { eventId: string } | { productId: string };

/**
 * Moves someone waiting to a place higher in line, with the reason recorded in the audit log.
 * Nobody else's sort key changes: the moved entry takes a key between its new neighbours.
 */
export async function moveInLine(
  db: Db,
  input: LineOwner & { entryId: string; position: number; reason: string } & Actor,
): Promise<{ ok: true; name: string; position: number } | Refusal | NotFound> {
  const owned =
    "eventId" in input
      ? sql`${waitingListEntries.ticketTypeId} in (select id from ${ticketTypes} where ${ticketTypes.eventId} = ${input.eventId})`
      : sql`${waitingListEntries.variantId} in (select id from ${productVariants} where ${productVariants.productId} = ${input.productId})`;
  return db.transaction(async (tx) => {
    const [entry] = await tx
      .select({
        id: waitingListEntries.id,
        ticketTypeId: waitingListEntries.ticketTypeId,
        variantId: waitingListEntries.variantId,
        status: waitingListEntries.status,
        sortKey: waitingListEntries.sortKey,
        name: users.name,
      })
      .from(waitingListEntries)
      .innerJoin(users, eq(users.id, waitingListEntries.userId))
      .where(and(eq(waitingListEntries.id, input.entryId), owned))
      .for("update", { of: waitingListEntries });
    if (!entry) return gone("This place in line");
    if (entry.status !== "waiting") return refuse("Only someone still waiting can be moved", "position");
    // The others waiting in this line, in order, locked so two moves cannot pick the same gap.
    const others = await tx
      .select({ id: waitingListEntries.id, sortKey: waitingListEntries.sortKey })
      .from(waitingListEntries)
      .where(
        and(
          entry.ticketTypeId
            ? eq(waitingListEntries.ticketTypeId, entry.ticketTypeId)
            : eq(waitingListEntries.variantId, entry.variantId!),
          eq(waitingListEntries.status, "waiting"),
          ne(waitingListEntries.id, entry.id),
        ),
      )
      .orderBy(asc(waitingListEntries.sortKey), asc(waitingListEntries.id))
      .for("update");
    const from =
      others.filter(
        (other) => other.sortKey < entry.sortKey || (other.sortKey === entry.sortKey && other.id < entry.id),
      ).length + 1;
    const to = Math.min(input.position, others.length + 1);
    if (to >= from) return refuse(`${entry.name} is already number ${from}: choose a place higher in line`, "position");
    const sortKey = sortKeyAt(
      others.map((other) => other.sortKey),
      to,
    );
    await tx
      .update(waitingListEntries)
      .set({ sortKey, updatedAt: input.now })
      .where(eq(waitingListEntries.id, entry.id));
    await recordAudit(tx, {
      actorId: input.actorId,
      action: "waiting_list.move",
      subjectType: "waiting_list_entry",
      subjectId: entry.id,
      ip: input.ip,
      details: {
        ...("eventId" in input ? { eventId: input.eventId } : { productId: input.productId }),
        from,
        to,
        reason: input.reason,
      },
    });
    return { ok: true as const, name: entry.name, position: to };
  });
}
