import { and, asc, desc, eq, gt, type SQL, sql } from "drizzle-orm";
import type { CartLineView, CartSection, ItemKind } from "~/features/commerce/item-kind";
import { cartRowColumns, kindsOf, linesOfKind } from "~/features/commerce/kind-lines";
import { addVariantToCart, type MerchCartChange } from "~/features/shop/cart-merch.server";
import { type UnlockedTicket, unlockedTicketTypes } from "~/features/tickets/ticket-cart.server";
import { maxPerOrderMessage } from "~/features/tickets/ticket-lines";
import { previewVoucher } from "~/features/vouchers/voucher-uses.server";
import type { Db } from "~/server/db/client.server";
import { cartItems, carts, events, MAX_LINE_QUANTITY, orders, ticketTypes, vouchers } from "../../../db/schema";
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
  input: { owner: CartOwner; eventId: string; ticketTypeId: string; quantity: number; now: Date; member?: boolean },
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
        member: input.member,
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

/** A kind's section of the cart page with its lines, in the page's order. */
export type CartPageSection = CartSection & { lines: CartLineView[] };

export type CartPage = {
  /** The sections that have lines. */
  sections: CartPageSection[];
  subtotal: number;
  /** What the buyer's membership saves on the cart's lines, in minor units (0 for a non-member). */
  memberSaving: number;
  /** What the delivered lines (merch) come to: free delivery is judged on it; null when there are none. */
  deliveredSubtotal: number | null;
  /** Events the cart's tickets admit to (merch can be collected there). */
  eventIds: string[];
  /** The code entered: what it takes off, or why it cannot be used now. */
  voucher: CartPageVoucher | null;
  /** Hidden ticket types the code lets the buyer add. */
  unlocked: UnlockedTicket[];
  payable: boolean;
};

/** The cart's code: what it takes off (0 in an empty cart), or why it cannot be used now. */
/**
 * The cart's code: what it takes off, or why it cannot be used; `keepsPlaces` when it holds places
 * kept for its holder that are in the cart (a waiting-list offer takes nothing off but does that).
 */
export type CartPageVoucher = { code: string; discount: number; keepsPlaces: boolean; problem: string | null };

const EMPTY_CART_PAGE: CartPage = {
  sections: [],
  subtotal: 0,
  memberSaving: 0,
  deliveredSubtotal: null,
  eventIds: [],
  voucher: null,
  unlocked: [],
  payable: false,
};

/** The cart by its id, or by its owner (one query less than finding the cart first). */
export type CartSelector = { cartId: string | null } | { owner: CartOwner | null };

/**
 * The cart's lines with today's prices and whatever stands in the way of paying for each. One
 * query reads every line of the cart, then each kind the cart holds reads its own lines, all at
 * the same time: a cart of tickets reads no draw, application or merch tables.
 */
export async function loadCartPage(
  db: Db,
  kinds: readonly ItemKind[],
  input: CartSelector & {
    userId?: string;
    now: Date;
    member?: boolean;
    /** The tier of the buyer's membership: an item's price for that tier is theirs. */
    tierId?: string | null;
    /** For the code's messages (its minimum basket, its dates): the site's currency and time zone. */
    currency?: string;
    timeZone?: string;
  },
): Promise<CartPage> {
  const where =
    "cartId" in input ? input.cartId && eq(cartItems.cartId, input.cartId) : input.owner && ownerCondition(input.owner);
  const cart = "cartId" in input ? input.cartId && eq(carts.id, input.cartId) : where;
  if (!where || !cart) return EMPTY_CART_PAGE;
  const rows = await db
    .select({
      cartId: cartItems.cartId,
      ...cartRowColumns,
      voucherId: carts.voucherId,
      voucherTypes: vouchers.ticketTypeIds,
    })
    .from(cartItems)
    .innerJoin(carts, eq(carts.id, cartItems.cartId))
    .leftJoin(vouchers, eq(vouchers.id, carts.voucherId))
    .where(where)
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
  const first = rows[0];
  if (!first) return emptyCartWithCode(db, cart, input.now);
  const { cartId } = first;
  const voucher = first.voucherId ? { id: first.voucherId, ticketTypeIds: first.voucherTypes ?? [] } : null;
  const member = input.member ?? false;
  const context = {
    cartId,
    userId: input.userId,
    now: input.now,
    member,
    tierId: member ? (input.tierId ?? null) : null,
    voucher,
  };
  const read = await Promise.all(
    kindsOf(kinds, rows).map(async (kind) => ({
      kind,
      lines: await kind.cart.lines(db, linesOfKind(rows, kind), context),
    })),
  );
  // Lines that are posted come last, just above the delivery form that follows them.
  const shown = [...read.filter(({ kind }) => !kind.delivered), ...read.filter(({ kind }) => kind.delivered)];
  const sections = shown.flatMap(({ kind, lines }) =>
    kind.cart.sections.flatMap((section) => {
      const own = lines.filter((line) => line.section === section.id);
      return own.length > 0 ? [{ ...section, lines: own }] : [];
    }),
  );
  const all = read.flatMap(({ lines }) => lines);
  const delivered = read.filter(({ kind }) => kind.delivered).flatMap(({ lines }) => lines);
  const [voucherView, unlocked] = voucher
    ? await Promise.all([
        cartVoucherView(db, voucher.id, all, {
          ...input,
          currency: input.currency ?? "GBP",
          timeZone: input.timeZone ?? "Europe/London",
        }),
        unlockedTicketTypes(db, voucher.ticketTypeIds, {
          inCart: new Set(all.flatMap((line) => (line.item.ticketTypeId ? [line.item.ticketTypeId] : []))),
          now: input.now,
        }),
      ])
    : [null, []];
  return {
    sections,
    subtotal: totalOf(all),
    memberSaving: all.reduce((sum, line) => sum + (line.memberSaving ?? 0), 0),
    deliveredSubtotal: delivered.length > 0 ? totalOf(delivered) : null,
    eventIds: [...new Set(all.flatMap((line) => (line.admitsTo ? [line.admitsTo] : [])))],
    voucher: voucherView,
    unlocked,
    payable: all.length > 0 && all.every((line) => !line.problem) && !voucherView?.problem,
  };
}

/**
 * A cart with no lines may still hold a code: one that unlocks hidden tickets shows them, so a
 * `?voucher=` link to a crew ticket works from an empty cart.
 */
async function emptyCartWithCode(db: Db, cart: SQL, now: Date): Promise<CartPage> {
  const [found] = await db
    .select({ id: carts.voucherId, code: vouchers.code, ticketTypeIds: vouchers.ticketTypeIds })
    .from(carts)
    .innerJoin(vouchers, eq(vouchers.id, carts.voucherId))
    .where(cart);
  if (!found) return EMPTY_CART_PAGE;
  const unlocked = await unlockedTicketTypes(db, found.ticketTypeIds, { inCart: new Set(), now });
  return {
    ...EMPTY_CART_PAGE,
    voucher: { code: found.code, discount: 0, keepsPlaces: false, problem: null },
    unlocked,
  };
}

/** What the cart's code would take off these lines, or why it cannot be used now (read without locks). */
async function cartVoucherView(
  db: Db,
  voucherId: string,
  lines: CartLineView[],
  input: { userId?: string; now: Date; currency: string; timeZone: string },
): Promise<CartPageVoucher | null> {
  const preview = await previewVoucher(db, {
    voucherId,
    userId: input.userId,
    lines: lines.map((line, index) => ({
      ...line.item,
      ref: String(index),
      unitPrice: line.unitPrice,
      quantity: line.quantity,
    })),
    now: input.now,
    currency: input.currency,
    timeZone: input.timeZone,
  });
  if (!preview) return null;
  return {
    code: preview.code,
    discount: preview.pricing?.amount ?? 0,
    keepsPlaces: preview.holdsPlaces && (preview.pricing?.units ?? 0) > 0,
    problem: preview.problem,
  };
}

function totalOf(lines: CartLineView[]) {
  return lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0);
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
