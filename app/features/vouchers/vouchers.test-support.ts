import type { Db } from "~/server/db/client.server";
import { type OrderStatus, orders, vouchers, voucherUses } from "../../../db/schema";
import { generateCode } from "./staff-vouchers.server";

/**
 * A voucher written straight to the database: an active code, random unless told, for 10% off
 * everything with no limits.
 */
export async function createTestVoucher(db: Db, overrides: Partial<typeof vouchers.$inferInsert> = {}) {
  const [voucher] = await db
    .insert(vouchers)
    .values({ code: generateCode(), effect: "percent_off", value: 10, active: true, ...overrides })
    .returning();
  return voucher!;
}

/**
 * An order that used the voucher for `units` items, written directly (no checkout): paid unless
 * told, a pending one with its hold running until `holdExpiresAt`.
 */
export async function recordTestUse(
  db: Db,
  input: {
    voucherId: string;
    units: number;
    userId?: string | null;
    status?: OrderStatus;
    holdExpiresAt?: Date | null;
  },
) {
  const [order] = await db
    .insert(orders)
    .values({
      userId: input.userId ?? null,
      email: "voucher-buyer@example.test",
      status: input.status ?? "paid",
      currency: "GBP",
      subtotal: 1000 * input.units,
      total: 900 * input.units,
      discount: 100 * input.units,
      provider: "test",
      holdExpiresAt: input.holdExpiresAt ?? null,
    })
    .returning({ id: orders.id });
  await db.insert(voucherUses).values({
    voucherId: input.voucherId,
    orderId: order!.id,
    userId: input.userId ?? null,
    units: input.units,
    amount: 100 * input.units,
  });
  return order!.id;
}
