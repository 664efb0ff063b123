import { and, eq, gt, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import { carts, orders, productVariants, vouchers, voucherUses } from "../../../db/schema";
import {
  isWellFormedCode,
  normaliseCode,
  type PricedLine,
  priceWithVoucher,
  usesLeft,
  type VoucherUses,
  voucherProblem,
} from "./voucher-rules";

export type Voucher = typeof vouchers.$inferSelect;

/**
 * The orders whose uses count at `now`: paid (wholly or partly refunded ones too, unless wholly),
 * or waiting for payment with their hold still running. A cancelled, expired or refunded order
 * has given its uses back.
 */
export function countingOrder(now: Date) {
  return or(
    inArray(orders.status, ["paid", "fulfilled", "partly_refunded"]),
    and(eq(orders.status, "pending"), gt(orders.holdExpiresAt, now)),
  );
}

const usedUnits = sql<number>`coalesce(sum(${voucherUses.units}), 0)::int`.mapWith(Number);

/**
 * The uses of a voucher made by other orders, in all and by this member. Read under the
 * voucher's row lock (`lockVoucher`) where it decides; without it, only for advice.
 */
export async function readVoucherUses(
  db: Db,
  voucherId: string,
  options: { userId?: string; now: Date; exceptOrderId?: string },
): Promise<VoucherUses> {
  const [row] = await db
    .select({
      all: usedUnits,
      member: options.userId
        ? sql<number>`coalesce(sum(${voucherUses.units}) filter (where ${voucherUses.userId} = ${options.userId}), 0)::int`.mapWith(
            Number,
          )
        : sql<number>`0`.mapWith(Number),
    })
    .from(voucherUses)
    .innerJoin(orders, eq(orders.id, voucherUses.orderId))
    .where(
      and(
        eq(voucherUses.voucherId, voucherId),
        countingOrder(options.now),
        options.exceptOrderId ? ne(voucherUses.orderId, options.exceptOrderId) : undefined,
      ),
    );
  return { all: row?.all ?? 0, member: row?.member ?? 0 };
}

/**
 * Locks the voucher's row for a decision about its uses. Every path that writes a use takes this
 * lock after the stock rows and the order rows it locks (ADR 0007), so two buyers cannot both take
 * the last use.
 */
async function lockVoucher(tx: Db, voucherId: string): Promise<Voucher | undefined> {
  const [voucher] = await tx.select().from(vouchers).where(eq(vouchers.id, voucherId)).for("no key update");
  return voucher;
}

/** Fills in the product of each merch line, which vouchers may name instead of its variants. */
async function withProducts(db: Db, lines: readonly PricedLine[]) {
  const variantIds = lines.flatMap((line) => (line.variantId ? [line.variantId] : []));
  const products =
    variantIds.length === 0
      ? []
      : await db
          .select({ id: productVariants.id, productId: productVariants.productId })
          .from(productVariants)
          .where(inArray(productVariants.id, variantIds));
  const productOf = new Map(products.map((row) => [row.id, row.productId]));
  return lines.map((line) => (line.variantId ? { ...line, productId: productOf.get(line.variantId) ?? null } : line));
}

export type AppliedVoucher = {
  voucherId: string;
  code: string;
  discounts: Map<string, number>;
  units: number;
  amount: number;
};

/**
 * Checkout's side of a voucher: under its row lock, whether this basket may use it now, and if
 * so what it takes off each line. The caller writes the order and then its use (`recordUse`)
 * in the same transaction, before the lock is let go.
 */
export async function applyVoucher(
  tx: Db,
  input: {
    voucherId: string;
    userId: string;
    lines: readonly PricedLine[];
    now: Date;
    currency: string;
    timeZone: string;
  },
): Promise<{ ok: true; applied: AppliedVoucher } | { ok: false; problem: string }> {
  const voucher = await lockVoucher(tx, input.voucherId);
  if (!voucher) return { ok: false, problem: "That code no longer exists: remove it to pay without it" };
  const lines = await withProducts(tx, input.lines);
  const uses = await readVoucherUses(tx, voucher.id, { userId: input.userId, now: input.now });
  const problem = voucherProblem(voucher, {
    lines,
    uses,
    userId: input.userId,
    now: input.now,
    currency: input.currency,
    timeZone: input.timeZone,
  });
  if (problem) return { ok: false, problem: `${problem}. Remove the code to pay without it.` };
  const pricing = priceWithVoucher(voucher, lines);
  return { ok: true, applied: { voucherId: voucher.id, code: voucher.code, ...pricing } };
}

/** Writes an order's use of its voucher (checkout, under the voucher's lock). */
export async function recordUse(tx: Db, use: { applied: AppliedVoucher; orderId: string; userId: string; now: Date }) {
  await tx.insert(voucherUses).values({
    voucherId: use.applied.voucherId,
    orderId: use.orderId,
    userId: use.userId,
    units: use.applied.units,
    amount: use.applied.amount,
    createdAt: use.now,
  });
}

/**
 * The cart's advice about its code, read without locks: what it would take off each line, or
 * why it cannot be used now.
 */
export async function previewVoucher(
  db: Db,
  input: {
    voucherId: string;
    userId?: string;
    lines: readonly PricedLine[];
    now: Date;
    currency: string;
    timeZone: string;
  },
) {
  const [voucher] = await db.select().from(vouchers).where(eq(vouchers.id, input.voucherId));
  if (!voucher) return null;
  const lines = await withProducts(db, input.lines);
  const uses = await readVoucherUses(db, voucher.id, { userId: input.userId, now: input.now });
  const problem = voucherProblem(voucher, { ...input, lines, uses });
  return {
    code: voucher.code,
    holdsPlaces: voucher.holdsPlaces,
    problem,
    pricing: problem ? null : priceWithVoucher(voucher, lines),
  };
}

/**
 * The places of each of these ticket types (or, with `of: "variants"`, the units of each of these
 * merch variants) kept for holders of vouchers that hold places: each such voucher, while it
 * runs, keeps its unused uses' places from everyone else. `own` are those kept by `ownVoucherId`,
 * the buyer's own voucher, whose kept places are theirs to take; `others` the rest.
 */
export async function placesKeptForVouchers(
  db: Db,
  ids: readonly string[],
  now: Date,
  options: { ownVoucherId?: string | null; of?: "ticketTypes" | "variants" } = {},
): Promise<Map<string, { others: number; own: number }>> {
  const kept = new Map<string, { others: number; own: number }>();
  if (ids.length === 0) return kept;
  const target = options.of === "variants" ? sql`${vouchers.variantIds}[1]` : sql`${vouchers.ticketTypeIds}[1]`;
  const used = db
    .select({ voucherId: voucherUses.voucherId, units: usedUnits.as("units") })
    .from(voucherUses)
    .innerJoin(orders, eq(orders.id, voucherUses.orderId))
    .where(countingOrder(now))
    .groupBy(voucherUses.voucherId)
    .as("used");
  const rows = await db
    .select({
      voucherId: vouchers.id,
      targetId: sql<string>`${target}`,
      kept: sql<number>`greatest(0, ${vouchers.maxUses} - coalesce(${used.units}, 0))::int`.mapWith(Number),
    })
    .from(vouchers)
    .leftJoin(used, eq(used.voucherId, vouchers.id))
    .where(
      and(
        eq(vouchers.holdsPlaces, true),
        eq(vouchers.active, true),
        or(isNull(vouchers.validUntil), gt(vouchers.validUntil, now)),
        inArray(target, [...ids]),
      ),
    );
  for (const row of rows) {
    const sums = kept.get(row.targetId) ?? { others: 0, own: 0 };
    if (row.voucherId === options.ownVoucherId) sums.own += row.kept;
    else sums.others += row.kept;
    kept.set(row.targetId, sums);
  }
  return kept;
}

/** The voucher an order used, if any. */
export async function voucherOfOrder(db: Db, orderId: string) {
  const [use] = await db
    .select({ voucherId: voucherUses.voucherId, units: voucherUses.units, userId: voucherUses.userId })
    .from(voucherUses)
    .where(eq(voucherUses.orderId, orderId));
  return use ?? null;
}

export const LATE_VOUCHER_REASON =
  "The payment arrived after the hold ran out, and the code's last uses had gone to other buyers";

/**
 * Settling an order paid after its hold ran out: its voucher use stopped counting when the hold
 * did, so under the voucher's lock (after the order's, ADR 0007) it must still fit the limits.
 */
export async function lateUseRefusal(tx: Db, orderId: string, now: Date): Promise<string | null> {
  const use = await voucherOfOrder(tx, orderId);
  if (!use) return null;
  const voucher = await lockVoucher(tx, use.voucherId);
  if (!voucher) return null;
  const uses = await readVoucherUses(tx, voucher.id, { userId: use.userId ?? undefined, now, exceptOrderId: orderId });
  const left = usesLeft(voucher, uses);
  return left !== null && use.units > left ? LATE_VOUCHER_REASON : null;
}

/** The voucher entered in a cart, with the ticket types it names. */
export async function cartVoucher(db: Db, cartId: string) {
  const [found] = await db
    .select({ id: vouchers.id, code: vouchers.code, ticketTypeIds: vouchers.ticketTypeIds })
    .from(carts)
    .innerJoin(vouchers, eq(vouchers.id, carts.voucherId))
    .where(eq(carts.id, cartId));
  return found ?? null;
}

/** The voucher a code names, as typed (any case, spaces or dashes). */
export async function voucherByCode(db: Db, typed: string) {
  const code = normaliseCode(typed);
  if (!isWellFormedCode(code)) return null;
  const [found] = await db
    .select({ id: vouchers.id, code: vouchers.code })
    .from(vouchers)
    .where(eq(vouchers.code, code));
  return found ?? null;
}
