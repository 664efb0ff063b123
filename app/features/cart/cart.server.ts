import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { mergeVisitorMerch } from "~/features/shop/cart-merch.server";
import {
  attendeeNamesProblem,
  isLineQuantity,
  type LineProblem,
  maxPerOrderMessage,
  normaliseAttendeeNames,
  ticketLineProblem,
} from "~/features/tickets/ticket-lines";
import { readTicketStock } from "~/features/tickets/ticket-stock.server";
import { cartVoucher } from "~/features/vouchers/voucher-uses.server";
import type { Db } from "~/server/db/client.server";
import { cartItems, carts, events, MAX_LINE_QUANTITY, ticketTypes } from "../../../db/schema";

/**
 * The cart: one per member, or one per visitor found by the token in their
 * cookie. Lines are checked against live availability when they change, as advice; checkout
 * checks them again under locks, which is what actually protects capacity.
 */

export type CartOwner = { userId: string } | { visitorToken: string };

/** A new visitor cart token for the cookie: 256 random bits. */
export function newVisitorToken() {
  return randomBytes(32).toString("base64url");
}

/** Only the hash is stored, so a copy of the database cannot open a visitor's cart. */
export function hashVisitorToken(token: string) {
  return createHash("sha256").update(token).digest("base64url");
}

function ownerCondition(owner: CartOwner) {
  return "userId" in owner
    ? eq(carts.userId, owner.userId)
    : eq(carts.visitorTokenHash, hashVisitorToken(owner.visitorToken));
}

/** The owner's cart id, or null when they have none yet (reading a cart never creates one). */
export async function findCart(db: Db, owner: CartOwner): Promise<string | null> {
  const [cart] = await db.select({ id: carts.id }).from(carts).where(ownerCondition(owner));
  return cart?.id ?? null;
}

export async function getOrCreateCart(db: Db, owner: CartOwner): Promise<string> {
  const values =
    "userId" in owner ? { userId: owner.userId } : { visitorTokenHash: hashVisitorToken(owner.visitorToken) };
  // Two first requests at once both insert; the loser's insert does nothing and it reads the winner's.
  const [created] = await db.insert(carts).values(values).onConflictDoNothing().returning({ id: carts.id });
  if (created) return created.id;
  const existing = await findCart(db, owner);
  if (!existing) throw new Error("The cart was deleted while it was being opened");
  return existing;
}

export type CartLineInput = {
  cartId: string;
  ticketTypeId: string;
  quantity: number;
  /** Multi-day passes: the name on each ticket, in order; may be left blank until checkout. */
  attendeeNames?: readonly string[];
  now: Date;
  /** The member the cart belongs to: their own unpaid order's holds do not count against them. */
  userId?: string;
  /** They hold a club membership with its benefits: members-only types and presales are open to them. */
  member?: boolean;
};

export type CartChange = { ok: true; quantity: number } | { ok: false; problem: LineProblem };

/**
 * Puts `quantity` tickets of a type in the cart (replacing what the line had), after checking the
 * per-order maximum, the sales window and what is left now.
 */
export async function setCartItem(db: Db, input: CartLineInput): Promise<CartChange> {
  const { ticketTypeId } = input;
  if (!isLineQuantity(input.quantity, MAX_LINE_QUANTITY)) {
    return { ok: false, problem: { code: "quantity", message: "Choose how many tickets you want", ticketTypeId } };
  }
  const [found] = await db
    .select({ eventId: ticketTypes.eventId })
    .from(ticketTypes)
    .where(eq(ticketTypes.id, ticketTypeId));
  if (!found) return { ok: false, problem: notFound(ticketTypeId) };

  // The cart's code may let a hidden type be bought, and its kept places are the buyer's.
  const voucher = await cartVoucher(db, input.cartId);
  const stock = await readTicketStock(db, [found.eventId], input.now, {
    lock: false,
    exceptUserId: input.userId,
    voucherId: voucher?.id,
  });
  const event = stock.events.get(found.eventId)!;
  const type = stock.types.get(ticketTypeId)!;
  const names = normaliseAttendeeNames(type, input.quantity, input.attendeeNames ?? []);
  const problem =
    ticketLineProblem(event, type, stock.typesOfEvent(event.id), input.quantity, input.now, {
      member: input.member ?? false,
      unlocked: voucher?.ticketTypeIds ?? [],
    }) ?? attendeeNamesProblem(type, names, false);
  if (problem) return { ok: false, problem };

  await db
    .insert(cartItems)
    .values({ cartId: input.cartId, kind: "ticket", ticketTypeId, quantity: input.quantity, attendeeNames: names })
    .onConflictDoUpdate({
      target: [cartItems.cartId, cartItems.ticketTypeId],
      set: { quantity: input.quantity, attendeeNames: names, updatedAt: input.now },
    });
  await touch(db, input.cartId, input.now);
  return { ok: true, quantity: input.quantity };
}

export async function removeCartItem(db: Db, input: { cartId: string; ticketTypeId: string; now: Date }) {
  await db
    .delete(cartItems)
    .where(and(eq(cartItems.cartId, input.cartId), eq(cartItems.ticketTypeId, input.ticketTypeId)));
  await touch(db, input.cartId, input.now);
}

async function touch(db: Db, cartId: string, now: Date) {
  await db.update(carts).set({ updatedAt: now }).where(eq(carts.id, cartId));
}

function notFound(ticketTypeId: string): LineProblem {
  return { code: "not_found", message: "These tickets are no longer available", ticketTypeId };
}

export type CartLine = {
  kind: "ticket";
  ticketTypeId: string;
  eventId: string;
  eventTitle: string;
  eventSlug: string;
  name: string;
  /** Today's price; the order copies it when checkout starts. */
  unitPrice: number;
  quantity: number;
  attendeeNames: string[];
  multiDay: boolean;
};

/** The cart's lines in the order they were added, with today's names and prices. */
export async function cartLines(db: Db, cartId: string): Promise<CartLine[]> {
  const rows = await db
    .select({
      ticketTypeId: ticketTypes.id,
      eventId: events.id,
      eventTitle: events.title,
      eventSlug: events.slug,
      name: ticketTypes.name,
      unitPrice: ticketTypes.price,
      quantity: cartItems.quantity,
      attendeeNames: cartItems.attendeeNames,
      days: ticketTypes.days,
    })
    .from(cartItems)
    .innerJoin(ticketTypes, eq(ticketTypes.id, cartItems.ticketTypeId))
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(and(eq(cartItems.cartId, cartId), eq(cartItems.kind, "ticket")))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
  return rows.map(({ days, ...row }) => ({ kind: "ticket" as const, ...row, multiDay: days.length >= 2 }));
}

/** What a merge changed of a line: tickets of a type, or a merch variant. */
export type MergeAdjustment = { ticketTypeId?: string; variantId?: string; message: string };

/**
 * On sign-in, the visitor's cart joins the member's: quantities of the same ticket type (or merch
 * variant) add up, capped at the per-order maximum and at what is left; lines that can no longer
 * be bought are dropped. Answers what had to change, for a notice. The visitor's cart is deleted.
 */
export async function mergeVisitorCartIntoMember(
  db: Db,
  input: { visitorToken: string; userId: string; now: Date },
): Promise<{ cartId: string | null; adjustments: MergeAdjustment[] }> {
  return db.transaction(async (tx) => {
    const [visitorCart] = await tx
      .select({ id: carts.id, voucherId: carts.voucherId })
      .from(carts)
      .where(eq(carts.visitorTokenHash, hashVisitorToken(input.visitorToken)))
      .for("update");
    if (!visitorCart) return { cartId: await findCart(tx, { userId: input.userId }), adjustments: [] };

    const visitorLines = await tx
      .select({
        ticketTypeId: cartItems.ticketTypeId,
        eventId: ticketTypes.eventId,
        quantity: cartItems.quantity,
        attendeeNames: cartItems.attendeeNames,
      })
      .from(cartItems)
      .innerJoin(ticketTypes, eq(ticketTypes.id, cartItems.ticketTypeId))
      .where(eq(cartItems.cartId, visitorCart.id))
      .orderBy(asc(cartItems.createdAt), asc(cartItems.id));
    const [visitorMerch] = await tx
      .select({ id: cartItems.id })
      .from(cartItems)
      .where(and(eq(cartItems.cartId, visitorCart.id), eq(cartItems.kind, "merch")))
      .limit(1);
    if (visitorLines.length === 0 && !visitorMerch && !visitorCart.voucherId) {
      await tx.delete(carts).where(eq(carts.id, visitorCart.id));
      return { cartId: await findCart(tx, { userId: input.userId }), adjustments: [] };
    }

    const cartId = await getOrCreateCart(tx, { userId: input.userId });
    // A code entered before signing in is the one the visitor meant to use.
    if (visitorCart.voucherId) {
      await tx.update(carts).set({ voucherId: visitorCart.voucherId }).where(eq(carts.id, cartId));
    }
    const voucher = await cartVoucher(tx, cartId);
    const merchAdjustments: MergeAdjustment[] = visitorMerch
      ? await mergeVisitorMerch(tx, {
          visitorCartId: visitorCart.id,
          memberCartId: cartId,
          userId: input.userId,
          now: input.now,
        })
      : [];
    await tx.delete(carts).where(eq(carts.id, visitorCart.id));
    if (visitorLines.length === 0) return { cartId, adjustments: merchAdjustments };
    const typeIds = visitorLines.map((line) => line.ticketTypeId!);
    const memberLines = await tx
      .select({
        ticketTypeId: cartItems.ticketTypeId,
        quantity: cartItems.quantity,
        attendeeNames: cartItems.attendeeNames,
      })
      .from(cartItems)
      .where(and(eq(cartItems.cartId, cartId), inArray(cartItems.ticketTypeId, typeIds)))
      .for("update");
    const existing = new Map(memberLines.map((line) => [line.ticketTypeId!, line]));
    const stock = await readTicketStock(
      tx,
      visitorLines.map((line) => line.eventId),
      input.now,
      { lock: false, exceptUserId: input.userId, voucherId: voucher?.id },
    );

    const adjustments: MergeAdjustment[] = [];
    for (const line of visitorLines) {
      const ticketTypeId = line.ticketTypeId!;
      const type = stock.types.get(ticketTypeId)!;
      const event = stock.events.get(line.eventId)!;
      const mine = existing.get(ticketTypeId);
      const wanted = Math.min(line.quantity + (mine?.quantity ?? 0), MAX_LINE_QUANTITY);
      // The most that passes every rule: the per-order maximum, then what is left.
      let quantity = Math.min(wanted, type.maxPerOrder);
      let reason = quantity < wanted ? maxPerOrderMessage(type) : null;
      const problem = ticketLineProblem(event, type, stock.typesOfEvent(event.id), quantity, input.now, {
        member: false,
        unlocked: voucher?.ticketTypeIds ?? [],
      });
      if (problem) {
        quantity = problem.code === "not_enough" ? problem.remaining! : 0;
        reason = problem.message;
      }
      if (reason) adjustments.push({ ticketTypeId, message: reason });
      if (quantity <= (mine?.quantity ?? 0)) continue;
      const names = normaliseAttendeeNames(type, quantity, [
        ...(mine?.attendeeNames ?? []).slice(0, mine?.quantity ?? 0),
        ...line.attendeeNames,
      ]);
      await tx
        .insert(cartItems)
        .values({ cartId, kind: "ticket", ticketTypeId, quantity, attendeeNames: names })
        .onConflictDoUpdate({
          target: [cartItems.cartId, cartItems.ticketTypeId],
          set: { quantity, attendeeNames: names, updatedAt: input.now },
        });
    }
    await touch(tx, cartId, input.now);
    return { cartId, adjustments: [...adjustments, ...merchAdjustments] };
  });
}

/** Visitor carts nobody has touched for this long are deleted by the clean-up. */
export const VISITOR_CART_DAYS = 30;

export async function deleteAbandonedVisitorCarts(db: Db, now: Date) {
  const cutoff = new Date(now.getTime() - VISITOR_CART_DAYS * 24 * 60 * 60 * 1000);
  const deleted = await db
    .delete(carts)
    .where(and(sql`${carts.visitorTokenHash} is not null`, sql`${carts.updatedAt} < ${cutoff}`))
    .returning({ id: carts.id });
  return deleted.length;
}
