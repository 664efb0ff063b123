import { eq, sql } from "drizzle-orm";
import type { CartRow, CheckoutProblem, ItemKind, NewOrderLine, OrderRow } from "~/features/commerce/item-kind";
import { buyerPrice } from "~/features/commerce/member-price";
import { LATE_SOLD_OUT_REASON } from "~/features/commerce/settle.server";
import { voucherOfOrder } from "~/features/vouchers/voucher-uses.server";
import { cartItems, productVariants } from "../../../db/schema";
import { merchCart } from "./cart-merch.server";
import { merchLineProblem } from "./merch-rules";
import { availableUnits, readVariantStock, variantDescription } from "./stock.server";

/** A merch line: so many units of one variant (a size, a colour). */
type MerchLine = { variantId: string; quantity: number };

function merchLine(row: CartRow | OrderRow): MerchLine {
  if (!row.variantId) throw new Error(`Line ${row.id} is a merch line without its variant`);
  return { variantId: row.variantId, quantity: row.quantity };
}

/**
 * Merch from the shop: units on a variant's shelf (its row is locked after the draws), taken off
 * the shelf when paid and put back when refunded. Merch is posted or collected at an event, so an
 * order with merch needs a way to reach the buyer and waits for staff to fulfil it.
 */
export const merchKind: ItemKind = {
  name: "merch",
  unit: { one: "item of merch", other: "items of merch" },
  delivered: true,
  cart: merchCart,

  async checkout(tx, rows, { userId, now, member, tierId, voucher }) {
    const lines = rows.map(merchLine);
    // The member's own unpaid order is replaced by this one, so its holds are not counted.
    const stock = await readVariantStock(
      tx,
      lines.map((line) => line.variantId),
      now,
      { lock: true, exceptUserId: userId, voucherId: voucher?.id },
    );
    return {
      // On sale, within the per-order maximum, and no more than the shelf less others' holds.
      async check() {
        const problems: CheckoutProblem[] = [];
        const checked: NewOrderLine[] = [];
        for (const { variantId, quantity } of lines) {
          const variant = stock.variants.get(variantId);
          const problem = merchLineProblem(variant, variantId, quantity);
          if (problem || !variant) {
            problems.push({
              ...(problem ?? { code: "not_found", message: "An item is no longer in the shop" }),
              line: variantId,
            });
            continue;
          }
          stock.take(variantId, quantity);
          checked.push({
            values: {
              variantId,
              description: variantDescription(variant),
              // The membership was read as checkout began: one that has ended since loses the price.
              unitPrice: buyerPrice(variant, { member, tierId }),
              quantity,
            },
            hold: { variantId, quantity },
          });
        }
        return { lines: checked, problems };
      },
    };
  },

  async settle(tx, rows, { now, order }) {
    const lines = rows.map(merchLine);
    // The shelf is taken from under this lock. This order's own live holds are counted in `held`
    // here and given back below, like ticket places; the units its own voucher keeps (a waiting-
    // list offer) are the order's to take.
    const voucher = await voucherOfOrder(tx, order.id);
    const stock = await readVariantStock(
      tx,
      lines.map((line) => line.variantId),
      now,
      { lock: true, voucherId: voucher?.voucherId },
    );
    return {
      short(held) {
        const heldOf = (variantId: string) =>
          held.reduce((sum, hold) => (hold.variantId === variantId ? sum + hold.quantity : sum), 0);
        const short = lines.some((line) => heldOf(line.variantId) < line.quantity);
        for (const hold of held) if (hold.variantId) stock.take(hold.variantId, -hold.quantity);
        return short;
      },
      // As for tickets (ADR 0008): a late payment is honoured only if the units are still free of
      // everyone else's holds; a held one still needs them on the shelf (staff may have counted
      // the shelf down meanwhile).
      async refusal(_tx, { late }) {
        for (const line of lines) {
          const variant = stock.variants.get(line.variantId);
          const enough = variant && (late ? availableUnits(variant) : variant.stock) >= line.quantity;
          if (!enough) return { reason: LATE_SOLD_OUT_REASON, outcome: "expired" };
          stock.take(line.variantId, line.quantity);
        }
        return null;
      },
      // The CHECK stock >= 0 is the last line of defence; the locked check above is the rule.
      async afterPaid(tx) {
        for (const line of lines) {
          await tx
            .update(productVariants)
            .set({ stock: sql`${productVariants.stock} - ${line.quantity}`, updatedAt: now })
            .where(eq(productVariants.id, line.variantId));
        }
        return { issued: lines.reduce((sum, line) => sum + line.quantity, 0) };
      },
    };
  },

  paid: {
    writes: () => [],
    boughtInCart: (value) => sql`${cartItems.variantId} = any(${value("bought")}::uuid[])`,
    values: (rows) => ({ bought: rows.map((row) => merchLine(row).variantId) }),
  },

  async refund(tx, rows, { now }) {
    await readVariantStock(
      tx,
      rows.map((row) => merchLine(row).variantId),
      now,
      { lock: true },
    );
    return {
      // Its units not yet refunded: posted or not, goods can come back.
      units: async () => (line) =>
        Array.from({ length: line.quantity - line.refundedQuantity }, () => ({ ids: [], status: "valid" })),
      // Merch goes back on the shelf, under its variant's lock.
      async refund(tx, chosen, now) {
        for (const { line, units } of chosen) {
          await tx
            .update(productVariants)
            .set({ stock: sql`${productVariants.stock} + ${units.length}`, updatedAt: now })
            .where(eq(productVariants.id, merchLine(line).variantId));
        }
      },
    };
  },
};
