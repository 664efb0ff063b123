import { and, eq, inArray } from "drizzle-orm";
import { applicationCheckoutItems } from "~/features/applications/applications.server";
import { entrantOf } from "~/features/draws/cart-entries.server";
import {
  bundleFor,
  type EntryProblem,
  entrantProblem,
  entryLineProblem,
  picksProblem,
  takenProblem,
} from "~/features/draws/draw-rules";
import { readDrawStock, takenNumbers } from "~/features/draws/entries.server";
import { recordOrderChanges } from "~/features/orders/order-history.server";
import type { PlayProblem } from "~/features/play/play-rules";
import { entryPlayProblem } from "~/features/play/play-settings.server";
import { checkDeliveryAddress } from "~/features/shipping/address";
import { type ShippingChoice, shippingFee } from "~/features/shipping/rates";
import { collectionEvents, readShippingSettings } from "~/features/shipping/shipping.server";
import { type MerchProblem, merchLineProblem } from "~/features/shop/merch-rules";
import { readVariantStock, variantDescription } from "~/features/shop/stock.server";
import {
  attendeeNamesProblem,
  type LineProblem,
  normaliseAttendeeNames,
  ticketLineProblem,
} from "~/features/tickets/ticket-lines";
import { readTicketStock } from "~/features/tickets/ticket-stock.server";
import { checkoutTurnProblems } from "~/features/waiting-room/waiting-room.server";
import type { Db } from "~/server/db/client.server";
import { isUniqueViolation, transactionWithRetry } from "~/server/db/retry.server";
import { countOf } from "~/ui/plural";
import {
  cartItems,
  carts,
  holds,
  type OrderStatus,
  orderItems,
  orders,
  type PaymentProvider,
  type ShippingAddress,
  type ShippingMethod,
  ticketTypes,
} from "../../../db/schema";
import { DEFAULT_HOLD_MINUTES } from "./holds.server";

/**
 * The largest order total: what Stripe accepts in one payment (99,999,999 minor units), far
 * above any real basket, and well inside the 32-bit columns.
 */
export const MAX_ORDER_TOTAL = 99_999_999;

export type CheckoutProblem =
  | (LineProblem & { drawId?: undefined })
  | (EntryProblem & { ticketTypeId?: undefined })
  /** Responsible play: a cool-off, a self-exclusion or a spending limit (the whole cart's entries). */
  | (PlayProblem & { ticketTypeId?: undefined; drawId?: undefined })
  /** A merch line: its variant is named, like a ticket type for tickets. */
  | (MerchProblem & { ticketTypeId?: undefined; drawId?: undefined })
  /** How the merch reaches the buyer: no choice made, a country not delivered to, an event not offered. */
  | { code: "shipping"; message: string; ticketTypeId?: undefined; drawId?: undefined }
  /** A show-car application's fee that can no longer be paid (not approved, past the deadline). */
  | { code: "application"; message: string; applicationId: string; ticketTypeId?: undefined; drawId?: undefined }
  | {
      code: "cart_not_found" | "empty_cart" | "total_too_large";
      message: string;
      ticketTypeId?: undefined;
      drawId?: undefined;
    };

export type CheckoutOrder = {
  id: string;
  number: number;
  total: number;
  currency: string;
  holdExpiresAt: Date;
  /** "pending" for a new order; whatever it is now for one found by its idempotency key. */
  status: OrderStatus;
};

export type CheckoutResult =
  | { ok: true; order: CheckoutOrder; reused: boolean }
  | { ok: false; problems: CheckoutProblem[] };

export type CheckoutInput = {
  userId: string;
  email: string;
  cartId: string;
  now: Date;
  currency: string;
  provider: PaymentProvider;
  holdMinutes?: number;
  /** From the Pay form: a second submission of the same form answers the first one's order. */
  idempotencyKey?: string;
  /** How merch reaches the buyer; needed when the cart holds merch, ignored otherwise. */
  shipping?: ShippingChoice;
};

export const SUPERSEDED_REASON = "Replaced by a newer checkout";

/** Thrown inside the transaction so a refused checkout leaves nothing behind. */
class Refused extends Error {
  constructor(readonly problems: CheckoutProblem[]) {
    super("checkout refused");
  }
}

/**
 * Starts paying for the member's cart (starting payment holds every
 * limited item for 15 minutes; a shortfall refuses checkout and names the item). In one
 * transaction: lock the stock rows in the fixed order, replace the member's earlier unpaid order,
 * check every line against capacity − sold − active holds, then write the pending order with the
 * catalogue's prices, its lines, its holds and its first history entry. The cart stays as it is
 * until the order is paid, so a cancelled payment returns the buyer to the same cart.
 */
export async function startCheckout(db: Db, input: CheckoutInput): Promise<CheckoutResult> {
  const holdMinutes = input.holdMinutes ?? DEFAULT_HOLD_MINUTES;
  if (!Number.isInteger(holdMinutes) || holdMinutes < 1 || holdMinutes > 24 * 60) {
    throw new Error(`holdMinutes must be a whole number of minutes from 1 to 1440, not ${holdMinutes}`);
  }
  try {
    return await transactionWithRetry(db, (tx) => checkoutIn(tx, input, holdMinutes));
  } catch (error) {
    if (error instanceof Refused) return { ok: false, problems: error.problems };
    // Two submissions of one Pay form at once, over carts that changed in between: the second
    // trips the unique key instead of waiting on the same locks; answer the first one's order.
    if (input.idempotencyKey && isUniqueViolation(error)) {
      const existing = await orderForKey(db, input.userId, input.idempotencyKey);
      if (existing) return { ok: true, order: existing, reused: true };
    }
    throw error;
  }
}

type CheckoutItem =
  | {
      kind: "ticket";
      ticketTypeId: string;
      eventId: string;
      description: string;
      unitPrice: number;
      quantity: number;
      attendeeNames: string[];
    }
  | {
      kind: "entry";
      drawId: string;
      entriesPerUnit: number;
      answer: number;
      pickedNumbers: number[];
      description: string;
      unitPrice: number;
      quantity: number;
    }
  | {
      kind: "application";
      applicationId: string;
      eventId: string;
      description: string;
      unitPrice: number;
      quantity: number;
    }
  | { kind: "merch"; variantId: string; description: string; unitPrice: number; quantity: number };

async function checkoutIn(tx: Db, input: CheckoutInput, holdMinutes: number): Promise<CheckoutResult> {
  const { now } = input;
  const [cart] = await tx
    .select({ id: carts.id })
    .from(carts)
    .where(and(eq(carts.id, input.cartId), eq(carts.userId, input.userId)));
  if (!cart) throw new Refused([{ code: "cart_not_found", message: "Your cart could not be found" }]);

  const lines = await tx
    .select({
      ticketTypeId: cartItems.ticketTypeId,
      eventId: ticketTypes.eventId,
      quantity: cartItems.quantity,
      attendeeNames: cartItems.attendeeNames,
    })
    .from(cartItems)
    .innerJoin(ticketTypes, eq(ticketTypes.id, cartItems.ticketTypeId))
    .where(and(eq(cartItems.cartId, cart.id), eq(cartItems.kind, "ticket")))
    .orderBy(cartItems.createdAt, cartItems.id);
  const entryLines = await tx
    .select({
      drawId: cartItems.drawId,
      entriesPerUnit: cartItems.entriesPerUnit,
      answer: cartItems.answer,
      quantity: cartItems.quantity,
      pickedNumbers: cartItems.pickedNumbers,
    })
    .from(cartItems)
    .where(and(eq(cartItems.cartId, cart.id), eq(cartItems.kind, "entry")))
    .orderBy(cartItems.createdAt, cartItems.id);
  const [applicationLine] = await tx
    .select({ id: cartItems.id })
    .from(cartItems)
    .where(and(eq(cartItems.cartId, cart.id), eq(cartItems.kind, "application")))
    .limit(1);
  const merchLines = await tx
    .select({ variantId: cartItems.variantId, quantity: cartItems.quantity })
    .from(cartItems)
    .where(and(eq(cartItems.cartId, cart.id), eq(cartItems.kind, "merch")))
    .orderBy(cartItems.createdAt, cartItems.id);
  if (lines.length === 0 && entryLines.length === 0 && !applicationLine && merchLines.length === 0) {
    throw new Refused([{ code: "empty_cart", message: "Your cart is empty" }]);
  }

  // Locks in the one order (ADR 0007): events, ticket types, draws, variants, then orders.
  const stock = await readTicketStock(
    tx,
    lines.map((line) => line.eventId),
    now,
    { lock: true },
  );
  const drawStock = await readDrawStock(
    tx,
    entryLines.map((line) => line.drawId!),
    now,
    { lock: true, userId: input.userId, exceptUserId: input.userId },
  );
  // The member's own unpaid order is replaced below, so its merch holds are not counted.
  const variantStock = await readVariantStock(
    tx,
    merchLines.map((line) => line.variantId!),
    now,
    { lock: true, exceptUserId: input.userId },
  );

  // Checked under the locks: a double-clicked Pay button waits here for the first click's order.
  if (input.idempotencyKey) {
    const existing = await orderForKey(tx, input.userId, input.idempotencyKey);
    if (existing) return { ok: true, order: existing, reused: true };
  }

  // A member pays for one order at a time: their earlier unpaid order would otherwise hold
  // places against them. If that older payment completes after all, settlement refunds it.
  const superseded = await tx
    .update(orders)
    .set({ status: "cancelled", failureReason: SUPERSEDED_REASON, updatedAt: now })
    .where(and(eq(orders.userId, input.userId), eq(orders.status, "pending")))
    .returning({ id: orders.id });
  if (superseded.length > 0) {
    const ids = superseded.map((order) => order.id);
    const released = await tx
      .update(holds)
      .set({ status: "released", updatedAt: now })
      .where(and(inArray(holds.orderId, ids), eq(holds.status, "active")))
      .returning({ ticketTypeId: holds.ticketTypeId, quantity: holds.quantity, expiresAt: holds.expiresAt });
    for (const hold of released) {
      if (hold.ticketTypeId && hold.expiresAt > now) stock.take(hold.ticketTypeId, -hold.quantity);
    }
    await recordOrderChanges(
      tx,
      ids.map((orderId) => ({
        orderId,
        fromStatus: "pending",
        toStatus: "cancelled",
        note: SUPERSEDED_REASON,
        at: now,
      })),
    );
  }

  // While an event's queue runs, its tickets are only for a member whose turn it is.
  const problems: CheckoutProblem[] = await checkoutTurnProblems(tx, input.userId, lines, now);
  const items: CheckoutItem[] = [];
  for (const line of lines) {
    const type = stock.types.get(line.ticketTypeId!);
    const event = stock.events.get(line.eventId);
    // Deleted by staff between reading the cart and taking the locks.
    if (!type || !event) {
      problems.push({
        code: "not_found",
        message: "Some tickets are no longer available",
        ticketTypeId: line.ticketTypeId!,
      });
      continue;
    }
    const names = normaliseAttendeeNames(type, line.quantity, line.attendeeNames);
    const problem =
      ticketLineProblem(event, type, stock.typesOfEvent(event.id), line.quantity, now) ??
      attendeeNamesProblem(type, names, true);
    if (problem) {
      problems.push(problem);
      continue;
    }
    stock.take(type.id, line.quantity);
    items.push({
      kind: "ticket" as const,
      ticketTypeId: type.id,
      eventId: event.id,
      description: `${event.title} — ${type.name}`,
      unitPrice: type.price,
      quantity: line.quantity,
      attendeeNames: names,
    });
  }
  const entrant = entryLines.length > 0 ? await entrantOf(tx, input.userId) : null;
  const pickedInOrder = new Map<string, number[]>();
  for (const line of entryLines) {
    const drawId = line.drawId!;
    const draw = drawStock.draws.get(drawId);
    if (!draw) {
      problems.push({ code: "not_found", message: "A draw in your cart is no longer available", drawId });
      continue;
    }
    // Adding the entries to the cart needed the entrant's confirmation that they are 18 or over.
    const problem =
      entrantProblem(draw, { ...entrant!, confirmedAdult: true }, now) ??
      entryLineProblem(
        draw,
        drawStock.counts(drawId),
        { entriesPerUnit: line.entriesPerUnit, quantity: line.quantity, answer: line.answer ?? -1 },
        now,
      );
    if (problem) {
      problems.push(problem);
      continue;
    }
    const entries = line.entriesPerUnit * line.quantity;
    // Chosen numbers: each once in the order, and nobody else's (given, or held by a buyer paying).
    const picks = line.pickedNumbers;
    const picksTrouble =
      picksProblem(draw, picks, entries) ??
      picksProblem(draw, [...(pickedInOrder.get(drawId) ?? []), ...picks], Number.POSITIVE_INFINITY) ??
      takenProblem(drawId, await takenNumbers(tx, drawId, picks, { now, exceptUserId: input.userId }));
    if (picksTrouble) {
      problems.push(picksTrouble);
      continue;
    }
    pickedInOrder.set(drawId, [...(pickedInOrder.get(drawId) ?? []), ...picks]);
    drawStock.take(drawId, entries);
    items.push({
      kind: "entry" as const,
      drawId,
      entriesPerUnit: line.entriesPerUnit,
      answer: line.answer!,
      pickedNumbers: picks,
      description: `${draw.title} — ${countOf(line.entriesPerUnit, "entry", "entries")}`,
      unitPrice: bundleFor(draw, line.entriesPerUnit)!.price,
      quantity: line.quantity,
    });
  }
  if (entryLines.length > 0) {
    // Responsible play (docs/responsible-play.md): checked on what these entries cost now.
    const adding = items.reduce((sum, item) => (item.kind === "entry" ? sum + item.unitPrice * item.quantity : sum), 0);
    const play = await entryPlayProblem(tx, { userId: input.userId, adding, now, currency: input.currency });
    if (play) problems.push(play);
  }
  // Application fees hold no places: approval reserved the spot. Their rows are locked last.
  if (applicationLine) {
    for (const line of await applicationCheckoutItems(tx, { cartId: cart.id, now })) {
      if (line.problem) {
        problems.push({ code: "application", message: line.problem, applicationId: line.applicationId });
        continue;
      }
      items.push({
        kind: "application" as const,
        applicationId: line.applicationId,
        eventId: line.eventId,
        description: line.description,
        unitPrice: line.unitPrice,
        quantity: 1,
      });
    }
  }
  // Merch: on sale, within the per-order maximum, and no more than the shelf less others' holds.
  for (const line of merchLines) {
    const variantId = line.variantId!;
    const variant = variantStock.variants.get(variantId);
    const problem = merchLineProblem(variant, variantId, line.quantity);
    if (problem || !variant) {
      problems.push(problem!);
      continue;
    }
    variantStock.take(variantId, line.quantity);
    items.push({
      kind: "merch" as const,
      variantId,
      description: variantDescription(variant),
      unitPrice: variant.price,
      quantity: line.quantity,
    });
  }
  const merchSubtotal = items.reduce(
    (sum, item) => (item.kind === "merch" ? sum + item.unitPrice * item.quantity : sum),
    0,
  );
  const delivery =
    merchLines.length > 0
      ? await shippingFor(tx, {
          choice: input.shipping,
          userId: input.userId,
          orderEventIds: items.flatMap((item) => (item.kind === "ticket" ? [item.eventId] : [])),
          merchSubtotal,
          now,
        })
      : null;
  if (delivery && "problem" in delivery) problems.push({ code: "shipping", message: delivery.problem });
  if (problems.length > 0) throw new Refused(problems);
  const shipping = delivery && !("problem" in delivery) ? delivery : null;

  const subtotal = items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);
  const total = subtotal + (shipping?.fee ?? 0);
  if (total > MAX_ORDER_TOTAL) {
    throw new Refused([{ code: "total_too_large", message: "This order is too large to pay in one payment" }]);
  }

  const holdExpiresAt = new Date(now.getTime() + holdMinutes * 60_000);
  const [order] = await tx
    .insert(orders)
    .values({
      userId: input.userId,
      email: input.email,
      status: "pending",
      currency: input.currency,
      subtotal,
      shipping: shipping?.fee ?? 0,
      total,
      shippingMethod: shipping?.method ?? null,
      shippingAddress: shipping?.address ?? null,
      collectionEventId: shipping?.collectionEventId ?? null,
      holdExpiresAt,
      provider: input.provider,
      idempotencyKey: input.idempotencyKey ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: orders.id, number: orders.number });
  await tx.insert(orderItems).values(items.map((item) => ({ ...item, orderId: order!.id, createdAt: now })));
  const held = items.filter((item) => item.kind !== "application");
  if (held.length > 0)
    await tx.insert(holds).values(
      held.map((item) => ({
        orderId: order!.id,
        kind: item.kind,
        ...(item.kind === "ticket"
          ? { ticketTypeId: item.ticketTypeId, eventId: item.eventId, quantity: item.quantity }
          : item.kind === "merch"
            ? { variantId: item.variantId, quantity: item.quantity }
            : {
                drawId: item.drawId,
                quantity: item.quantity * item.entriesPerUnit,
                pickedNumbers: item.pickedNumbers,
              }),
        expiresAt: holdExpiresAt,
        createdAt: now,
        updatedAt: now,
      })),
    );
  await recordOrderChanges(tx, [
    { orderId: order!.id, fromStatus: null, toStatus: "pending", note: "Checkout started", at: now },
  ]);
  return {
    ok: true,
    reused: false,
    order: {
      id: order!.id,
      number: order!.number,
      total,
      currency: input.currency,
      holdExpiresAt,
      status: "pending",
    },
  };
}

async function orderForKey(db: Db, userId: string, key: string): Promise<CheckoutOrder | null> {
  const [order] = await db
    .select({
      id: orders.id,
      number: orders.number,
      total: orders.total,
      currency: orders.currency,
      holdExpiresAt: orders.holdExpiresAt,
      status: orders.status,
    })
    .from(orders)
    .where(and(eq(orders.idempotencyKey, key), eq(orders.userId, userId)));
  if (!order) return null;
  // Every order made by checkout has a hold expiry.
  return { ...order, holdExpiresAt: order.holdExpiresAt! };
}

type Shipping = {
  method: ShippingMethod;
  fee: number;
  address: ShippingAddress | null;
  collectionEventId: string | null;
};

/**
 * How this order's merch reaches the buyer and what it costs (docs/shop.md "Shipping"), decided
 * here from the shop settings and the order's own lines, never from the form's numbers: the
 * address is checked again for the countries delivered to now, and a collection event must be
 * one the buyer has a ticket for or is buying tickets for in this order.
 */
async function shippingFor(
  tx: Db,
  input: {
    choice: ShippingChoice | undefined;
    userId: string;
    orderEventIds: string[];
    merchSubtotal: number;
    now: Date;
  },
): Promise<Shipping | { problem: string }> {
  const { choice } = input;
  if (!choice) return { problem: "Choose how your merch should reach you: delivery or collection at an event" };
  const settings = await readShippingSettings(tx);
  if (choice.method === "delivery") {
    const { address } = choice;
    const checked = checkDeliveryAddress(
      {
        name: address.name,
        line1: address.line1,
        line2: address.line2 ?? "",
        town: address.town,
        region: address.region ?? "",
        postcode: address.postcode,
        country: address.country,
      },
      settings.countries,
    );
    if (!checked.ok) return { problem: "Check the delivery address: we cannot deliver to it as it is" };
    return {
      method: "delivery",
      fee: shippingFee(settings, "delivery", input.merchSubtotal),
      address: checked.address,
      collectionEventId: null,
    };
  }
  if (!settings.collectionEnabled) return { problem: "Collection at events is not offered at the moment" };
  const offered = await collectionEvents(tx, {
    userId: input.userId,
    withEventIds: input.orderEventIds,
    now: input.now,
  });
  if (!offered.some((event) => event.id === choice.eventId)) {
    return { problem: "Merch can only be collected at an upcoming event you have a ticket for" };
  }
  return { method: "collection", fee: 0, address: null, collectionEventId: choice.eventId };
}
