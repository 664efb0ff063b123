import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkoutFor, createBuyers, createTestEvent, fillCart, NOW } from "~/features/checkout/stock.test-support";
import { formatOrderNumber } from "~/features/commerce/order-number";
import { refundOrder, startCheckout } from "~/features/selling/selling.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { users } from "../../../db/schema";
import { getOrderDetail, listOrders } from "./admin-orders.server";
import { paidOrder } from "./paid-orders.test-support";

const database = freshDatabasePerFile();

describe("listOrders and getOrderDetail", () => {
  it("finds orders by number in either form, email or name, and filters by status", async () => {
    const { db } = database();
    const event = await createTestEvent(db, { types: [{ name: "Entry" }] });
    const [buyer] = await createBuyers(db, 1);
    await db.update(users).set({ name: "Morgan Tarmac" }).where(eq(users.id, buyer!.id));
    const { id, number } = await paidOrder(db, buyer!, [{ ticketTypeId: event.typeIds[0]!, quantity: 2 }]);

    const find = (q: string, status: "all" | "paid" | "refunded" = "all") =>
      listOrders(db, { q, status, page: 1 }).then((list) => list.orders.map((order) => order.id));
    expect(await find(formatOrderNumber(number))).toEqual([id]);
    expect(await find(String(number))).toEqual([id]);
    expect(await find(buyer!.email.slice(0, 12).toUpperCase())).toEqual([id]);
    expect(await find("tarmac")).toEqual([id]);
    expect(await find("nobody-at-all")).toEqual([]);
    expect(await find("", "paid")).toContain(id);
    expect(await find("", "refunded")).not.toContain(id);

    await refundOrder(db, { orderId: id, actorId: null, reason: "Asked", now: new Date(NOW.getTime() + 120_000) });
    const detail = await getOrderDetail(db, id);
    expect(detail?.order.status).toBe("refunded");
    expect(detail?.tickets.map((ticket) => ticket.status)).toEqual(["refunded", "refunded"]);
    expect(detail?.items[0]).toMatchObject({ refundable: 0, refundedQuantity: 2 });
    expect(detail?.transactions.map((row) => row.kind)).toEqual(["charge", "refund"]);
    expect(detail?.history.map((row) => row.toStatus)).toEqual(["pending", "paid", "refunded"]);
    expect(detail?.refundedBefore).toBe(2);
  });

  it("finds % and _ in the search as those characters, never as wildcards", async () => {
    const { db } = database();
    const event = await createTestEvent(db, { types: [{ name: "Entry" }] });
    const buyers = await createBuyers(db, 3);
    const names = ["Pat_Jones", "Pat Jones", "Pat Jones 100%"];
    const ids: string[] = [];
    for (const [index, buyer] of buyers.entries()) {
      await db.update(users).set({ name: names[index] }).where(eq(users.id, buyer.id));
      const cartId = await fillCart(db, buyer.id, [{ ticketTypeId: event.typeIds[0]!, quantity: 1 }]);
      const checkout = await startCheckout(db, checkoutFor(buyer, cartId));
      if (!checkout.ok) throw new Error("checkout refused");
      ids.push(checkout.order.id);
    }
    const find = (q: string) =>
      listOrders(db, { q, status: "all", page: 1 }).then((list) =>
        list.orders.map((order) => order.id).filter((id) => ids.includes(id)),
      );
    expect(await find("t_j")).toEqual([ids[0]]);
    expect(await find("_")).toEqual([ids[0]]);
    expect(await find("100%")).toEqual([ids[2]]);
    expect(await find("%")).toEqual([ids[2]]);
  });
});
