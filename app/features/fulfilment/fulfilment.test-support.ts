import { createTestProduct } from "~/features/shop/products.test-support";
import type { Db } from "~/server/db/client.server";
import { orderItems, orders, type ShippingAddress } from "../../../db/schema";

/**
 * Paid merch orders made straight in the database for the fulfilment tests: fulfilment starts
 * where settlement ends (an order paid, its merch `unfulfilled`), which the checkout's own tests
 * cover.
 */

const TEST_ADDRESS: ShippingAddress = {
  name: "Jo Driver",
  line1: "1 Pit Lane",
  town: "Testbury",
  postcode: "TE5 7AA",
  country: "GB",
};

/** A product of one variant (a tee, "M / Black" unless told), in stock, to be ordered. */
export async function createMerchVariant(
  db: Db,
  input: { title?: string; options?: string[]; stock?: number; threshold?: number; status?: "active" | "draft" } = {},
) {
  const options = input.options ?? ["M", "Black"];
  const product = await createTestProduct(db, {
    title: input.title ?? "Club tee",
    status: input.status,
    optionNames: input.options?.length ? ["Size", "Colour"].slice(0, input.options.length) : [],
    lowStockThreshold: input.threshold ?? 5,
    variants: [{ options, price: 2000, stock: input.stock ?? 20 }],
  });
  return { productId: product.id, variantId: product.variantIds[0]!, title: product.title };
}

export async function createMerchOrder(
  db: Db,
  input: {
    userId?: string | null;
    email?: string;
    variantId: string;
    quantity?: number;
    status?: "paid" | "pending" | "refunded" | "cancelled" | "partly_refunded";
    collectionEventId?: string;
    paidAt?: Date;
    fulfilmentStatus?: "unfulfilled" | "shipped" | "ready_for_collection" | "collected";
  },
) {
  const quantity = input.quantity ?? 1;
  const collection = Boolean(input.collectionEventId);
  const [order] = await db
    .insert(orders)
    .values({
      userId: input.userId ?? null,
      email: input.email ?? "jo@club.example",
      status: input.status ?? "paid",
      currency: "GBP",
      subtotal: 2000 * quantity,
      shipping: collection ? 0 : 495,
      total: 2000 * quantity + (collection ? 0 : 495),
      provider: "test",
      paidAt: input.paidAt ?? new Date("2027-05-01T10:00:00Z"),
      shippingMethod: collection ? "collection" : "delivery",
      shippingAddress: collection ? null : TEST_ADDRESS,
      collectionEventId: input.collectionEventId ?? null,
      fulfilmentStatus: input.fulfilmentStatus ?? "unfulfilled",
    })
    .returning({ id: orders.id, number: orders.number });
  await db.insert(orderItems).values({
    orderId: order!.id,
    kind: "merch",
    variantId: input.variantId,
    description: "Club tee — M / Black",
    unitPrice: 2000,
    quantity,
  });
  return order!;
}
