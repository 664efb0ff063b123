import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import { applicationCartLines, type CartApplicationLine } from "~/features/applications/fees.server";
import { type CartEntryLine, entryCartLines } from "~/features/draws/cart-entries.server";
import { formatLocalDay } from "~/features/events/event-dates";
import { ticketSalesState } from "~/features/events/sales";
import { addVariantToCart, type MerchCartChange } from "~/features/shop/cart-merch.server";
import { merchLineProblem } from "~/features/shop/merch-rules";
import { availableUnits, readVariantStock } from "~/features/shop/stock.server";
import {
  attendeeNamesProblem,
  maxPerOrderMessage,
  normaliseAttendeeNames,
  ticketLineProblem,
} from "~/features/tickets/ticket-lines";
import { readTicketStock } from "~/features/tickets/ticket-stock.server";
import type { Db } from "~/server/db/client.server";
import { cartItems, carts, events, MAX_LINE_QUANTITY, orders, ticketTypes } from "../../../db/schema";
import { type CartOwner, getOrCreateCart, hashVisitorToken, setCartItem } from "./cart.server";

/**
 * What the cart page and the event page's Add to cart need beyond the cart's own rules: the
 * page's lines with their live problems, the item count for the navigation, and adding tickets
 * and merch.
 */

function ownerCondition(owner: CartOwner) {
  return "userId" in owner
    ? eq(carts.userId, owner.userId)
    : eq(carts.visitorTokenHash, hashVisitorToken(owner.visitorToken));
}

/** How many tickets the owner's cart holds, in one query (the navigation's badge). */
export async function cartItemCount(db: Db, owner: CartOwner | null): Promise<number> {
  if (!owner) return 0;
  const [row] = await db
    .select({ count: sql<number>`coalesce(sum(${cartItems.quantity}), 0)::int` })
    .from(cartItems)
    .innerJoin(carts, eq(carts.id, cartItems.cartId))
    .where(ownerCondition(owner));
  return row?.count ?? 0;
}

export type AddToCartResult =
  | { ok: true; quantity: number; name: string; cartId: string }
  /** `ticketTypeId` is null when the type is not one this event's page shows. */
  | { ok: false; ticketTypeId: string | null; message: string };

/**
 * Adds `quantity` tickets to what the cart already has of that type. The ticket type must be a
 * visible type of `eventId` (the page it was picked on), so a form edited to carry another
 * event's type is refused. Nothing is stored when the change is refused, not even a new cart.
 */
export async function addToCart(
  db: Db,
  input: { owner: CartOwner; eventId: string; ticketTypeId: string; quantity: number; now: Date },
): Promise<AddToCartResult> {
  const { ticketTypeId } = input;
  const refuse = (message: string) => ({ ok: false as const, ticketTypeId, message });
  const [type] = await db
    .select({
      name: ticketTypes.name,
      hidden: ticketTypes.hidden,
      maxPerOrder: ticketTypes.maxPerOrder,
      status: events.status,
    })
    .from(ticketTypes)
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(and(eq(ticketTypes.id, ticketTypeId), eq(ticketTypes.eventId, input.eventId)));
  if (!type || type.hidden || type.status === "draft") {
    return { ok: false, ticketTypeId: null, message: "These tickets are not sold on this page" };
  }

  const userId = "userId" in input.owner ? input.owner.userId : undefined;
  try {
    return await db.transaction(async (tx) => {
      const cartId = await getOrCreateCart(tx, input.owner);
      const [line] = await tx
        .select({ quantity: cartItems.quantity, attendeeNames: cartItems.attendeeNames })
        .from(cartItems)
        .where(and(eq(cartItems.cartId, cartId), eq(cartItems.ticketTypeId, ticketTypeId)));
      const quantity = (line?.quantity ?? 0) + input.quantity;
      if (quantity > Math.min(type.maxPerOrder, MAX_LINE_QUANTITY)) {
        throw new Refused(
          line ? `${maxPerOrderMessage(type)}; your cart already has ${line.quantity}` : maxPerOrderMessage(type),
        );
      }
      const change = await setCartItem(tx, {
        cartId,
        ticketTypeId,
        quantity,
        attendeeNames: line?.attendeeNames,
        now: input.now,
        userId,
      });
      if (!change.ok) throw new Refused(change.problem.message);
      return { ok: true as const, quantity: input.quantity, name: type.name, cartId };
    });
  } catch (error) {
    if (error instanceof Refused) return refuse(error.message);
    throw error;
  }
}

/** Rolls back the cart created for a refused change. */
class Refused extends Error {}

/** Rolls back the cart created for a merch change the rules refused. */
class RefusedMerch extends Error {
  constructor(readonly change: Extract<MerchCartChange, { ok: false }>) {
    super(change.problem.message);
  }
}

/**
 * Adds `quantity` of a variant to the owner's cart (the product page's Add to cart), making the
 * cart if there is none yet; `userId` is the signed-in member, whose own holds do not count
 * against the stock. Nothing is stored when the rules refuse the change, not even a new cart.
 */
export async function addMerchToCart(
  db: Db,
  input: { owner: CartOwner; variantId: string; quantity: number; now: Date; userId?: string },
): Promise<MerchCartChange> {
  try {
    return await db.transaction(async (tx) => {
      const cartId = await getOrCreateCart(tx, input.owner);
      const result = await addVariantToCart(tx, {
        cartId,
        variantId: input.variantId,
        quantity: input.quantity,
        now: input.now,
        userId: input.userId,
      });
      if (!result.ok) throw new RefusedMerch(result);
      return result;
    });
  } catch (error) {
    if (!(error instanceof RefusedMerch)) throw error;
    return error.change;
  }
}

export type CartPageLine = {
  ticketTypeId: string;
  eventTitle: string;
  eventSlug: string;
  name: string;
  /** Day labels ("Sat 12 June") the ticket admits to, when the event has several days. */
  days: string[];
  multiDay: boolean;
  unitPrice: number;
  quantity: number;
  /** The most the quantity picker offers: the per-order maximum, or fewer if fewer are left. */
  maxQuantity: number;
  attendeeNames: string[];
  /** Why this line cannot be paid for now, naming it; null when it can. */
  problem: string | null;
  /** The event is cancelled or sales have ended: the line can only be removed. */
  closed: boolean;
};

/** A merch line: one variant (size, colour) of a product, with its quantity. */
export type CartMerchLine = {
  variantId: string;
  productTitle: string;
  productSlug: string;
  /** "Size: M · Colour: Black"; empty for a product without options. */
  optionsLabel: string;
  unitPrice: number;
  quantity: number;
  maxQuantity: number;
  problem: string | null;
  /** Off sale or gone: the line can only be removed. */
  closed: boolean;
};

export type CartPage = {
  lines: CartPageLine[];
  merch: CartMerchLine[];
  /** What the merch alone comes to: free delivery is judged on it. */
  merchSubtotal: number;
  /** Events whose tickets are in the cart (merch can be collected there). */
  eventIds: string[];
  entries: CartEntryLine[];
  applications: CartApplicationLine[];
  subtotal: number;
  payable: boolean;
};

const EMPTY_CART_PAGE: CartPage = {
  lines: [],
  merch: [],
  merchSubtotal: 0,
  eventIds: [],
  entries: [],
  applications: [],
  subtotal: 0,
  payable: false,
};

/** The cart by its id, or by its owner (one query less than finding the cart first). */
export type CartSelector = { cartId: string | null } | { owner: CartOwner | null };

/**
 * The cart's lines with today's prices and whatever stands in the way of paying for each. One
 * query reads every item of the cart (the ticket lines with their event), then only the kinds the
 * cart holds are looked up, at the same time: a cart of tickets reads no draw, application or
 * merch tables.
 */
export async function loadCartPage(db: Db, input: CartSelector & { userId?: string; now: Date }): Promise<CartPage> {
  const where =
    "cartId" in input ? input.cartId && eq(cartItems.cartId, input.cartId) : input.owner && ownerCondition(input.owner);
  if (!where) return EMPTY_CART_PAGE;
  const items = await db
    .select({
      cartId: cartItems.cartId,
      kind: cartItems.kind,
      ticketTypeId: cartItems.ticketTypeId,
      variantId: cartItems.variantId,
      eventId: events.id,
      eventTitle: events.title,
      eventSlug: events.slug,
      quantity: cartItems.quantity,
      attendeeNames: cartItems.attendeeNames,
    })
    .from(cartItems)
    .innerJoin(carts, eq(carts.id, cartItems.cartId))
    .leftJoin(ticketTypes, eq(ticketTypes.id, cartItems.ticketTypeId))
    .leftJoin(events, eq(events.id, ticketTypes.eventId))
    .where(where)
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
  const cartId = items[0]?.cartId;
  if (!cartId) return EMPTY_CART_PAGE;
  const rows = items.flatMap((item) =>
    item.kind === "ticket" && item.ticketTypeId && item.eventId && item.eventTitle !== null && item.eventSlug !== null
      ? [
          {
            ...item,
            ticketTypeId: item.ticketTypeId,
            eventId: item.eventId,
            eventTitle: item.eventTitle,
            eventSlug: item.eventSlug,
          },
        ]
      : [],
  );
  const merchRows = items.flatMap((item) =>
    item.kind === "merch" && item.variantId ? [{ variantId: item.variantId, quantity: item.quantity }] : [],
  );
  const has = (kind: (typeof items)[number]["kind"]) => items.some((item) => item.kind === kind);
  const [stock, entries, applications, merch] = await Promise.all([
    rows.length > 0
      ? readTicketStock(
          db,
          rows.map((row) => row.eventId),
          input.now,
          { lock: false, exceptUserId: input.userId },
        )
      : null,
    has("entry") ? entryCartLines(db, { cartId, userId: input.userId, now: input.now }) : [],
    has("application") ? applicationCartLines(db, { cartId, now: input.now }) : [],
    merchCartLines(db, merchRows, { userId: input.userId, now: input.now }),
  ]);

  const lines: CartPageLine[] = rows.map((row) => {
    const event = stock!.events.get(row.eventId)!;
    const type = stock!.types.get(row.ticketTypeId)!;
    const types = stock!.typesOfEvent(event.id);
    const state = ticketSalesState(event, type, types, input.now);
    const remaining = state.kind === "on_sale" ? state.remaining : null;
    const names = normaliseAttendeeNames(type, row.quantity, row.attendeeNames);
    const problem =
      ticketLineProblem(event, type, types, row.quantity, input.now) ?? attendeeNamesProblem(type, names, true);
    return {
      ticketTypeId: row.ticketTypeId,
      eventTitle: row.eventTitle,
      eventSlug: row.eventSlug,
      name: type.name,
      days: [...type.days].sort().map(formatLocalDay),
      multiDay: type.days.length > 1,
      unitPrice: type.price,
      quantity: row.quantity,
      maxQuantity: Math.max(row.quantity, Math.min(type.maxPerOrder, remaining ?? type.maxPerOrder)),
      attendeeNames: names,
      problem: problem?.message ?? null,
      closed: ["cancelled", "ended", "not_on_sale", "not_found"].includes(problem?.code ?? ""),
    };
  });
  const all = [...lines, ...entries, ...applications, ...merch];
  const subtotal = all.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0);
  return {
    lines,
    merch,
    merchSubtotal: merch.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0),
    eventIds: [...new Set(rows.map((row) => row.eventId))],
    entries,
    applications,
    subtotal,
    payable: all.length > 0 && all.every((line) => !line.problem),
  };
}

/** Whether a line for this ticket type is in the cart (updates only change existing lines). */
export async function cartHasLine(db: Db, cartId: string, ticketTypeId: string) {
  const [line] = await db
    .select({ quantity: cartItems.quantity })
    .from(cartItems)
    .where(and(eq(cartItems.cartId, cartId), eq(cartItems.ticketTypeId, ticketTypeId)));
  return Boolean(line);
}

/** The member's unpaid order whose places are still held, to resume paying for it. */
export async function heldOrder(db: Db, userId: string, now: Date) {
  const [order] = await db
    .select({ id: orders.id, holdExpiresAt: orders.holdExpiresAt, provider: orders.provider })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, "pending"), gt(orders.holdExpiresAt, now)))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return order?.holdExpiresAt ? { id: order.id, expiresAt: order.holdExpiresAt } : null;
}

/** The cart's merch lines (in the cart's order) with today's prices and what stands in the way of each. */
async function merchCartLines(
  db: Db,
  rows: { variantId: string; quantity: number }[],
  input: { userId?: string; now: Date },
): Promise<CartMerchLine[]> {
  if (rows.length === 0) return [];
  const stock = await readVariantStock(
    db,
    rows.map((row) => row.variantId),
    input.now,
    { lock: false, exceptUserId: input.userId },
  );
  return rows.flatMap((row) => {
    const variant = stock.variants.get(row.variantId);
    // A variant deleted with its product leaves the cart with it (the foreign key cascades).
    if (!variant) return [];
    const problem = merchLineProblem(variant, variant.id, row.quantity);
    const left = availableUnits(variant);
    return [
      {
        variantId: variant.id,
        productTitle: variant.productTitle,
        productSlug: variant.productSlug,
        optionsLabel: variant.options
          .map((value, index) => (variant.optionNames[index] ? `${variant.optionNames[index]}: ${value}` : value))
          .join(" · "),
        unitPrice: variant.price,
        quantity: row.quantity,
        maxQuantity: Math.max(row.quantity, Math.min(variant.maxPerOrder, left)),
        problem: problem?.message ?? null,
        closed: problem?.code === "unavailable" || problem?.code === "not_found",
      },
    ];
  });
}
