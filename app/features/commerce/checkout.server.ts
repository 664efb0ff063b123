import { and, eq, inArray, notExists, sql } from "drizzle-orm";
import { DEFAULT_HOLD_MINUTES } from "~/features/commerce/holds.server";
import { recordOrderChanges } from "~/features/commerce/order-history.server";
import { returnCreditOfUnpaidOrders, spendCredit } from "~/features/credit/credit.server";
import { checkDeliveryAddress } from "~/features/shipping/address";
import { type ShippingChoice, shippingFee } from "~/features/shipping/rates";
import { collectionEvents, readShippingSettings } from "~/features/shipping/shipping.server";
import type { PricedLine } from "~/features/vouchers/voucher-rules";
import { type AppliedVoucher, applyVoucher, recordUse } from "~/features/vouchers/voucher-uses.server";
import type { Db } from "~/server/db/client.server";
import { isUniqueViolation, transactionWithRetry } from "~/server/db/retry.server";
import { formatMoney } from "~/ui/money";
import {
  bookingMoves,
  cartItems,
  carts,
  holds,
  type ItemKind as ItemKindName,
  type OrderStatus,
  orderItems,
  orders,
  type PaymentProvider,
  type ShippingAddress,
  type ShippingMethod,
  vouchers,
} from "../../../db/schema";
import type { CartRow, CheckoutProblem, ItemKind, KindCheckout, NewOrderLine, ReleasedHold } from "./item-kind";
import { cartRowColumns, kindsOf, linesOfKind } from "./kind-lines";

/**
 * The largest order total: what Stripe accepts in one payment (99,999,999 minor units), far
 * above any real basket, and well inside the 32-bit columns.
 */
export const MAX_ORDER_TOTAL = 99_999_999;

type CheckoutOrder = {
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
  /** The buyer holds a club membership with its benefits now: member prices and presales apply. */
  member?: boolean;
  /** The tier of that membership: an item's price for that tier is the buyer's. */
  tierId?: string | null;
  /** The club's time zone, for the dates in a voucher's messages. */
  timeZone?: string;
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
export async function startCheckout(db: Db, kinds: readonly ItemKind[], input: CheckoutInput): Promise<CheckoutResult> {
  const holdMinutes = input.holdMinutes ?? DEFAULT_HOLD_MINUTES;
  if (!Number.isInteger(holdMinutes) || holdMinutes < 1 || holdMinutes > 24 * 60) {
    throw new Error(`holdMinutes must be a whole number of minutes from 1 to 1440, not ${holdMinutes}`);
  }
  try {
    return await transactionWithRetry(db, (tx) => checkoutIn(tx, kinds, input, holdMinutes));
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

/**
 * Checks the cart under the locks and writes the order. Each kind locks its own stock rows, in the
 * kinds' order (ADR 0007: events, ticket types, draws, variants), before the member's earlier
 * unpaid order is replaced, and checks its own lines after; this loop knows no kind by name.
 */
async function checkoutIn(
  tx: Db,
  kinds: readonly ItemKind[],
  input: CheckoutInput,
  holdMinutes: number,
): Promise<CheckoutResult> {
  const { now } = input;
  const [cart] = await tx
    .select({ id: carts.id, voucherId: carts.voucherId, revealed: vouchers.ticketTypeIds })
    .from(carts)
    .leftJoin(vouchers, eq(vouchers.id, carts.voucherId))
    .where(and(eq(carts.id, input.cartId), eq(carts.userId, input.userId)));
  if (!cart) throw new Refused([{ code: "cart_not_found", message: "Your cart could not be found" }]);
  const rows = await tx
    .select(cartRowColumns)
    .from(cartItems)
    .where(eq(cartItems.cartId, cart.id))
    .orderBy(cartItems.createdAt, cartItems.id);
  if (rows.length === 0) throw new Refused([{ code: "empty_cart", message: "Your cart is empty" }]);
  const voucher = cart.voucherId ? { id: cart.voucherId, ticketTypeIds: cart.revealed ?? [] } : null;
  const context = {
    userId: input.userId,
    currency: input.currency,
    now,
    member: input.member ?? false,
    tierId: input.member ? (input.tierId ?? null) : null,
    voucher,
  };
  const sessions: { kind: ItemKind; session: KindCheckout }[] = [];
  for (const kind of kindsOf(kinds, rows)) {
    sessions.push({ kind, session: await kind.checkout(tx, linesOfKind(rows, kind), context) });
  }

  // Checked under the locks: a double-clicked Pay button waits here for the first click's order.
  if (input.idempotencyKey) {
    const existing = await orderForKey(tx, input.userId, input.idempotencyKey);
    if (existing) return { ok: true, order: existing, reused: true };
  }
  const released = await supersedeUnpaidOrders(tx, input.userId, now);
  for (const { session } of sessions) session.released?.(released);

  const problems: CheckoutProblem[] = [];
  const lines: (NewOrderLine & { kind: string; delivered: boolean })[] = [];
  for (const { kind, session } of sessions) {
    const checked = await session.check(tx);
    problems.push(...checked.problems);
    lines.push(...checked.lines.map((line) => ({ ...line, kind: kind.name, delivered: kind.delivered === true })));
  }
  const delivery = sessions.some(({ kind }) => kind.delivered)
    ? await shippingFor(tx, {
        choice: input.shipping,
        userId: input.userId,
        orderEventIds: lines.flatMap((line) => (line.admitsTo ? [line.admitsTo] : [])),
        deliveredSubtotal: sumOf(lines.filter((line) => line.delivered)),
        now,
      })
    : null;
  if (delivery && "problem" in delivery) problems.push({ code: "shipping", message: delivery.problem });
  if (problems.length > 0) throw new Refused(problems);
  const shipping = delivery && !("problem" in delivery) ? delivery : null;
  const applied = cart.voucherId ? await voucherFor(tx, cart.voucherId, lines, input) : null;

  const subtotal = sumOf(lines);
  const discount = applied?.amount ?? 0;
  const total = subtotal - discount + (shipping?.fee ?? 0);
  if (total > MAX_ORDER_TOTAL) {
    throw new Refused([{ code: "total_too_large", message: "This order is too large to pay in one payment" }]);
  }

  const holdExpiresAt = new Date(now.getTime() + holdMinutes * 60_000);
  const order = await writeOrder(tx, { input, lines, subtotal, applied, total, shipping, holdExpiresAt });
  if (applied) await recordUse(tx, { applied, orderId: order.id, userId: input.userId, now });
  // The member's account credit pays first, up to the total; the provider is asked for the rest.
  const credit = await spendCredit(tx, {
    userId: input.userId,
    orderId: order.id,
    upTo: total,
    currency: input.currency,
    now,
  });
  if (credit > 0) {
    await tx
      .update(orders)
      .set({ credit, total: total - credit })
      .where(eq(orders.id, order.id));
  }
  await recordOrderChanges(tx, [
    {
      orderId: order.id,
      fromStatus: null,
      toStatus: "pending",
      note:
        credit > 0
          ? `Checkout started; ${formatMoney(credit, input.currency)} of account credit used`
          : "Checkout started",
      at: now,
    },
  ]);
  return {
    ok: true,
    reused: false,
    order: {
      id: order.id,
      number: order.number,
      total: total - credit,
      currency: input.currency,
      holdExpiresAt,
      status: "pending",
    },
  };
}

export type PlaceOrderInput = Omit<CheckoutInput, "cartId" | "idempotencyKey" | "shipping" | "holdMinutes"> & {
  /** What the order is for, as cart lines would hold it (tickets: no merch, so no shipping). */
  lines: CartRow[];
  holdMinutes: number;
  /** Staff take off whatever the buyer's account credit leaves to pay (shown as the order's discount). */
  waiveRest: boolean;
  /** Why the order was made, for its history, and who made it. */
  note: string;
  actorId: string;
  /** Places the buyer gives up in the same transaction (a moved booking's): free for these lines. */
  freed?: ReleasedHold[];
  /**
   * Runs once the order is written, before the buyer's credit pays for it: what the caller does
   * in the same transaction that the credit depends on (a move refunds the old tickets to it).
   */
  beforePaying?(order: { id: string; number: number; subtotal: number }): Promise<void>;
};

export type PlacedOrder = CheckoutOrder & { credit: number; waived: number };

/**
 * An order staff make for a member, inside the caller's transaction (a booking moved to other
 * tickets): the kinds lock and check the lines as checkout does, at the buyer's own prices, and
 * the order is written as checkout writes it, its places held until `holdMinutes` pass. The
 * buyer's account credit pays first. It replaces none of the buyer's own unpaid orders, and their
 * next checkout leaves it alone (docs/transfers.md "Moves").
 */
export async function placeOrderIn(
  tx: Db,
  kinds: readonly ItemKind[],
  input: PlaceOrderInput,
): Promise<{ ok: true; order: PlacedOrder } | { ok: false; problems: CheckoutProblem[] }> {
  const { now } = input;
  const context = {
    userId: input.userId,
    currency: input.currency,
    now,
    member: input.member ?? false,
    tierId: input.member ? (input.tierId ?? null) : null,
    voucher: null,
  };
  const problems: CheckoutProblem[] = [];
  const lines: (NewOrderLine & { kind: string })[] = [];
  for (const kind of kindsOf(kinds, input.lines)) {
    const session = await kind.checkout(tx, linesOfKind(input.lines, kind), context);
    session.released?.((input.freed ?? []).filter((place) => place.kind === kind.name));
    const checked = await session.check(tx);
    problems.push(...checked.problems);
    lines.push(...checked.lines.map((line) => ({ ...line, kind: kind.name })));
  }
  if (problems.length > 0) return { ok: false, problems };
  const subtotal = sumOf(lines);
  const holdExpiresAt = new Date(now.getTime() + input.holdMinutes * 60_000);
  const order = await writeOrder(tx, {
    input: { ...input, cartId: "" },
    lines,
    subtotal,
    applied: null,
    total: subtotal,
    shipping: null,
    holdExpiresAt,
  });
  await input.beforePaying?.({ ...order, subtotal });
  const credit = await spendCredit(tx, {
    userId: input.userId,
    orderId: order.id,
    upTo: subtotal,
    currency: input.currency,
    now,
  });
  const waived = input.waiveRest ? subtotal - credit : 0;
  if (waived > 0) {
    // Taken off the line itself, so a later refund of its units gives back only what was paid.
    const [line] = await tx
      .select({ id: orderItems.id })
      .from(orderItems)
      .where(eq(orderItems.orderId, order.id))
      .limit(1);
    if (lines.length !== 1 || !line) throw new Error("Staff waive the rest only on an order of one line");
    await tx.update(orderItems).set({ discount: waived }).where(eq(orderItems.id, line.id));
  }
  const total = subtotal - credit - waived;
  if (credit > 0 || waived > 0) {
    await tx.update(orders).set({ credit, discount: waived, total }).where(eq(orders.id, order.id));
  }
  const paidBy = [
    credit > 0 ? `${formatMoney(credit, input.currency)} of account credit used` : null,
    waived > 0 ? `${formatMoney(waived, input.currency)} waived` : null,
  ].filter(Boolean);
  await recordOrderChanges(tx, [
    {
      orderId: order.id,
      fromStatus: null,
      toStatus: "pending",
      note: paidBy.length > 0 ? `${input.note}; ${paidBy.join(", ")}` : input.note,
      actorId: input.actorId,
      at: now,
    },
  ]);
  return {
    ok: true,
    order: {
      id: order.id,
      number: order.number,
      total,
      currency: input.currency,
      holdExpiresAt,
      status: "pending",
      credit,
      waived,
    },
  };
}

/** The pending order with the catalogue's prices, its lines and the holds they set aside. */
async function writeOrder(
  tx: Db,
  made: {
    input: CheckoutInput;
    lines: (NewOrderLine & { kind: string })[];
    subtotal: number;
    applied: AppliedVoucher | null;
    total: number;
    shipping: Shipping | null;
    holdExpiresAt: Date;
  },
) {
  const { input, lines, shipping, holdExpiresAt, applied } = made;
  const { now } = input;
  const [order] = await tx
    .insert(orders)
    .values({
      userId: input.userId,
      email: input.email,
      status: "pending",
      currency: input.currency,
      subtotal: made.subtotal,
      shipping: shipping?.fee ?? 0,
      discount: applied?.amount ?? 0,
      voucherCode: applied?.code ?? null,
      total: made.total,
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
  if (!order) throw new Error("The new order was not written");
  await tx.insert(orderItems).values(
    lines.map((line, index) => ({
      ...line.values,
      discount: applied?.discounts.get(String(index)) ?? 0,
      kind: line.kind as ItemKindName,
      orderId: order.id,
      createdAt: now,
    })),
  );
  const held = lines.flatMap((line) => (line.hold ? [{ ...line.hold, kind: line.kind as ItemKindName }] : []));
  if (held.length > 0) {
    await tx
      .insert(holds)
      .values(
        held.map((hold) => ({ ...hold, orderId: order.id, expiresAt: holdExpiresAt, createdAt: now, updatedAt: now })),
      );
  }
  return order;
}

/**
 * The cart's voucher, checked under its row lock after every stock row (ADR 0007), and what it
 * takes off each line (by the line's place in the order); a code that cannot be used refuses the
 * checkout, saying why, rather than charging more than the cart showed.
 */
async function voucherFor(
  tx: Db,
  voucherId: string,
  lines: readonly (NewOrderLine & { kind: string })[],
  input: CheckoutInput,
): Promise<AppliedVoucher> {
  const priced = lines.map((line, index): PricedLine & { variantId: string | null } => ({
    ref: String(index),
    kind: line.kind,
    eventId: line.values.eventId ?? null,
    ticketTypeId: line.values.ticketTypeId ?? null,
    tierId: line.values.tierId ?? null,
    drawId: line.values.drawId ?? null,
    variantId: line.values.variantId ?? null,
    unitPrice: line.values.unitPrice,
    quantity: line.values.quantity,
  }));
  const result = await applyVoucher(tx, {
    voucherId,
    userId: input.userId,
    lines: priced,
    now: input.now,
    currency: input.currency,
    timeZone: input.timeZone ?? "Europe/London",
  });
  if (!result.ok) throw new Refused([{ code: "voucher", message: result.problem }]);
  return result.applied;
}

function sumOf(lines: readonly NewOrderLine[]) {
  return lines.reduce((sum, line) => sum + line.values.unitPrice * line.values.quantity, 0);
}

/**
 * A member pays for one order at a time: their earlier unpaid order would otherwise hold places
 * against them. If that older payment completes after all, settlement refunds it. Answers the
 * holds it released.
 */
async function supersedeUnpaidOrders(tx: Db, userId: string, now: Date): Promise<ReleasedHold[]> {
  const superseded = await tx
    .update(orders)
    .set({ status: "cancelled", failureReason: SUPERSEDED_REASON, updatedAt: now })
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.status, "pending"),
        // An order staff made for them (a moved booking) waits for its own payment.
        notExists(tx.select({ one: sql`1` }).from(bookingMoves).where(eq(bookingMoves.toOrderId, orders.id))),
      ),
    )
    .returning({ id: orders.id });
  if (superseded.length === 0) return [];
  const ids = superseded.map((order) => order.id);
  const released = await tx
    .update(holds)
    .set({ status: "released", updatedAt: now })
    .where(and(inArray(holds.orderId, ids), eq(holds.status, "active")))
    .returning({
      kind: holds.kind,
      ticketTypeId: holds.ticketTypeId,
      quantity: holds.quantity,
      expiresAt: holds.expiresAt,
    });
  await recordOrderChanges(
    tx,
    ids.map((orderId) => ({ orderId, fromStatus: "pending", toStatus: "cancelled", note: SUPERSEDED_REASON, at: now })),
  );
  await returnCreditOfUnpaidOrders(tx, ids, now);
  return released;
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
  // Every order made by checkout has a hold expiry.
  if (!order?.holdExpiresAt) return null;
  return { ...order, holdExpiresAt: order.holdExpiresAt };
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
    /** What the delivered lines cost, for free delivery over a threshold. */
    deliveredSubtotal: number;
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
      fee: shippingFee(settings, "delivery", input.deliveredSubtotal),
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
