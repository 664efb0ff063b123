import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { orderState, pendingOrder } from "~/features/checkout/payments.test-support";
import { action, loader } from "~/routes/checkout/sandbox-checkout";
import { runtimeContext, userContext } from "~/server/context.server";
import { freshDatabasePerFile } from "~/server/db/test-database";
import type { Runtime } from "~/server/runtime.server";
import { testSessionUser } from "~/server/session-user.test-support";
import { orders } from "../../../db/schema";

// The test checkout's page, called as React Router calls it.
const database = freshDatabasePerFile();

function argsFor(provider: "test" | "stripe", member: { id: string; email: string }, orderId: string, method = "GET") {
  const context = new RouterContextProvider();
  context.set(runtimeContext, {
    db: database().db,
    env: { TIME_ZONE: "Europe/London" },
    payments: { provider },
  } as Runtime);
  context.set(userContext, testSessionUser({ ...member, name: "Buyer" }));
  const url = new URL(`http://localhost/checkout/test/${orderId}`);
  const request =
    method === "POST"
      ? new Request(url, { method, body: new URLSearchParams({ intent: "pay" }) })
      : new Request(url, { method });
  return { request, url, params: { orderId }, context, unstable_pattern: "/checkout/test/:orderId" } as never;
}

async function statusOf(promise: Promise<unknown>) {
  try {
    const answer = await promise;
    return (answer as { init?: { status?: number } } | undefined)?.init?.status ?? "answered";
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    return (thrown as { init?: { status?: number } }).init?.status;
  }
}

describe("/checkout/test/:orderId", () => {
  it("is not there once another provider takes the payments: Pay settles nothing", async () => {
    const { order, member } = await pendingOrder(database().db, { provider: "test" });
    expect(await statusOf(loader(argsFor("stripe", member, order.id)))).toBe(404);
    expect(await statusOf(action(argsFor("stripe", member, order.id, "POST")))).toBe(404);
    expect(await orderState(database().db, order.id)).toMatchObject({ status: "pending", tickets: 0, ledger: [] });
    expect(await statusOf(loader(argsFor("test", member, order.id)))).toBe("answered");
  });

  it("refuses Pay with a message once the hold ran out", async () => {
    const { order, member } = await pendingOrder(database().db, { provider: "test" });
    await database()
      .db.update(orders)
      .set({ holdExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(orders.id, order.id));
    const shown = (await loader(argsFor("test", member, order.id))) as { holdOver: boolean };
    expect(shown.holdOver).toBe(true);
    const answer = (await action(argsFor("test", member, order.id, "POST"))) as unknown as {
      data: { error: string };
      init: { status: number };
    };
    expect(answer.init.status).toBe(409);
    expect(answer.data.error).toMatch(/can no longer be paid. Nothing was charged/);
    expect(await orderState(database().db, order.id)).toMatchObject({ status: "pending", tickets: 0, ledger: [] });
  });
});
