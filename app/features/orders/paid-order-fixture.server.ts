import { and, eq, inArray } from "drizzle-orm";
import { getOrCreateCart, setCartItem } from "~/features/cart/cart.server";
import { startCheckout } from "~/features/checkout/checkout.server";
import type { Runtime } from "~/server/runtime.server";
import { events, ticketTypes } from "../../../db/schema";
import { enqueueOrderEmail } from "./order-email.server";
import { settleOrder } from "./settle.server";

/** The demo festival's day tickets and weekend pass: what the "paid-order" test fixture buys. */
const FESTIVAL = "silverstone-festival-of-speed";
const LINES = [
  { name: "Saturday day ticket", quantity: 1 },
  { name: "Sunday day ticket", quantity: 1 },
  { name: "Weekend pass", quantity: 1, named: true },
];

/**
 * A paid order for the signed-in member, made through the real cart, checkout and settlement
 * with the test provider, for end-to-end tests of what a buyer sees after paying. Only the
 * fixture route calls it, and that route exists only with ENABLE_TEST_FIXTURES.
 */
export async function createPaidOrderFixture(
  runtime: Pick<Runtime, "db" | "jobs" | "env">,
  member: { id: string; email: string; name: string },
  now = new Date(),
) {
  const { db, env } = runtime;
  const types = await db
    .select({ id: ticketTypes.id, name: ticketTypes.name })
    .from(ticketTypes)
    .innerJoin(events, eq(events.id, ticketTypes.eventId))
    .where(
      and(
        eq(events.slug, FESTIVAL),
        inArray(
          ticketTypes.name,
          LINES.map((line) => line.name),
        ),
      ),
    );
  const cartId = await getOrCreateCart(db, { userId: member.id });
  for (const line of LINES) {
    const type = types.find((row) => row.name === line.name);
    if (!type) throw new Error(`The demo festival has no "${line.name}"`);
    const added = await setCartItem(db, {
      cartId,
      ticketTypeId: type.id,
      quantity: line.quantity,
      attendeeNames: line.named ? [member.name] : undefined,
      now,
      userId: member.id,
    });
    if (!added.ok) throw new Error(added.problem.message);
  }
  const checkout = await startCheckout(db, {
    userId: member.id,
    email: member.email,
    cartId,
    now,
    currency: env.CURRENCY,
    provider: "test",
  });
  if (!checkout.ok) throw new Error(checkout.problems.map((problem) => problem.message).join("; "));
  const outcome = await settleOrder(db, {
    orderId: checkout.order.id,
    provider: "test",
    paymentReference: `fixture_${checkout.order.id}`,
    amount: checkout.order.total,
    currency: checkout.order.currency,
    now,
  });
  if (outcome.kind !== "settled") throw new Error(`The fixture order was not settled: ${outcome.kind}`);
  await enqueueOrderEmail(runtime.jobs, checkout.order.id);
  return checkout.order.id;
}
