import { and, asc, eq, gt } from "drizzle-orm";
import { getOrCreateCart } from "~/features/cart/cart.server";
import { settleOrder, startCheckout } from "~/features/selling/selling.server";
import { addVariantToCart } from "~/features/shop/cart-merch.server";
import type { Db } from "~/server/db/client.server";
import { products, productVariants } from "../../../db/schema";

/**
 * For end-to-end tests of fulfilment (ENABLE_TEST_FIXTURES only): a paid order with one unit of
 * the first demo merch in stock, posted to a made-up address, for the signed-in member. Uses the
 * real cart, checkout and settlement, as the test checkout's Pay button would.
 */
export async function paidMerchOrderFor(
  db: Db,
  input: { userId: string; email: string; currency: string; now: Date },
): Promise<{ ok: true; orderId: string } | { ok: false; problem: string }> {
  const candidates = await db
    .select({ id: productVariants.id })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(eq(products.status, "active"), eq(productVariants.active, true), gt(productVariants.stock, 5)))
    .orderBy(asc(products.position), asc(productVariants.position))
    .limit(10);
  const cartId = await getOrCreateCart(db, { userId: input.userId });
  for (const candidate of candidates) {
    const added = await addVariantToCart(db, {
      cartId,
      variantId: candidate.id,
      quantity: 1,
      now: input.now,
      userId: input.userId,
    });
    if (!added.ok) continue;
    const checkout = await startCheckout(db, {
      userId: input.userId,
      email: input.email,
      cartId,
      now: input.now,
      currency: input.currency,
      provider: "test",
      shipping: {
        method: "delivery",
        address: { name: "Jo Driver", line1: "1 Pit Lane", town: "Testbury", postcode: "NN12 8TN", country: "GB" },
      },
    });
    if (!checkout.ok) return { ok: false, problem: checkout.problems.map((problem) => problem.message).join("; ") };
    const settled = await settleOrder(db, {
      orderId: checkout.order.id,
      provider: "test",
      paymentReference: `fixture_${checkout.order.id}`,
      amount: checkout.order.total,
      currency: input.currency,
      now: input.now,
    });
    if (settled.kind !== "settled") return { ok: false, problem: `Not settled: ${settled.kind}` };
    return { ok: true, orderId: checkout.order.id };
  }
  return { ok: false, problem: "No demo merch is in stock" };
}
